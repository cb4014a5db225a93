// Free space in a directory several nodes share, on thread ranks that stand for one rank per
// node: ranks given the same real directory share it (as the nodes of a parallel filesystem do),
// ranks given their own do not. The sum of the sharing nodes' files is held against the free
// space; a node's own directory is its own check's business.
#include <gtest/gtest.h>

#include <sys/statvfs.h>

#include <filesystem>
#include <functional>
#include <thread>

#include "runtime/communicator.hpp"
#include "runtime/shared_directory.hpp"
#include "storage/storage_dir.hpp"
#include "storage/storage_options.hpp"
#include "temp_dir.hpp"

namespace cb {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::uint64_t free_bytes(const std::string& dir) {
  struct statvfs s {};
  EXPECT_EQ(::statvfs(dir.c_str(), &s), 0);
  return static_cast<std::uint64_t>(s.f_bavail) * s.f_frsize;
}

// Each rank's answer, for n thread ranks whose demands are demand(rank).
std::vector<std::string> answers(int n,
                                 const std::function<std::optional<DirectoryDemand>(int)>& demand) {
  std::vector<Communicator> world = Communicator::threads(n);
  std::vector<std::string> out(static_cast<std::size_t>(n));
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < n; ++r) {
      threads.emplace_back([&, r] {
        out[static_cast<std::size_t>(r)] =
            shared_directory_problem(world[static_cast<std::size_t>(r)], demand(r));
      });
    }
  }
  return out;
}

DirectoryDemand demand_in(const std::string& dir, std::uint64_t bytes) {
  return {"--storage-dir", dir, bytes, 1, bytes};
}

TEST(SharedDirectory, NodesThatShareADirectoryNeedRoomForAllTheirFiles) {
  TempDir dir;
  const std::uint64_t third = free_bytes(dir.str()) / 3;
  // Each of four nodes fits alone; together they need 4/3 of what is free.
  const auto got = answers(4, [&](int) { return demand_in(dir.str(), third); });
  EXPECT_NE(got[0].find("--storage-dir: '" + dir.str() + "' is one directory shared by 4 nodes"),
            std::string::npos)
      << got[0];
  EXPECT_NE(got[0].find("4 file(s)"), std::string::npos) << got[0];
  for (int r = 1; r < 4; ++r)
    EXPECT_EQ(got[static_cast<std::size_t>(r)], "") << "rank 0 says it, once";
  EXPECT_TRUE(fs::is_empty(dir.path())) << "the probe is removed";
  // Two of them fit.
  const auto two = answers(2, [&](int) { return demand_in(dir.str(), third); });
  EXPECT_EQ(two[0], "");
}

TEST(SharedDirectory, NodesWithTheirOwnDirectoriesAreNotSummed) {
  TempDir a, b, c;
  const std::vector<std::string> dirs = {a.str(), b.str(), c.str()};
  const std::uint64_t most = free_bytes(a.str()) / 3 * 2;
  const auto got =
      answers(3, [&](int r) { return demand_in(dirs[static_cast<std::size_t>(r)], most); });
  EXPECT_EQ(got[0], "");
  EXPECT_TRUE(fs::is_empty(a.path()));
}

TEST(SharedDirectory, OnlyTheRanksThatSpeakForANodeCount) {
  TempDir dir;
  const std::uint64_t share = free_bytes(dir.str()) / 5 * 3;
  // Ranks 1 and 3 are second ranks of their nodes: they pass nothing. Ranks 0 and 2 (two nodes)
  // need 6/5 of the free space.
  const auto got = answers(4, [&](int r) -> std::optional<DirectoryDemand> {
    if (r % 2)
      return std::nullopt;
    return demand_in(dir.str(), share);
  });
  EXPECT_NE(got[0].find("shared by 2 nodes"), std::string::npos) << got[0];
}

TEST(SharedDirectory, NothingIsCheckedOrCreatedWhenRankZeroWritesNothing) {
  TempDir dir;
  const auto got = answers(3, [&](int r) -> std::optional<DirectoryDemand> {
    if (r == 0)
      return std::nullopt;
    return demand_in(dir.str(), ~std::uint64_t{0} >> 2);
  });
  EXPECT_EQ(got[0], "");
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(SharedDirectory, ProbeNamesAndTheMessage) {
  EXPECT_TRUE(is_directory_probe_name("clusterbench-probe-0123456789abcdef"));
  EXPECT_FALSE(is_directory_probe_name("clusterbench-probe-0123456789ABCDEF"));
  EXPECT_FALSE(is_directory_probe_name("clusterbench-probe-0123456789abcde"));
  EXPECT_FALSE(is_directory_probe_name("clusterbench-probe-0123456789abcdefg"));
  EXPECT_FALSE(is_directory_probe_name("clusterbench-rank0.dat"));
  EXPECT_EQ(shared_directory_message({"--storage-dir", "/lustre/cb", 0, 0, 256ull << 20}, 1024,
                                     2048ull << 30, 8192, 100ull << 30),
            "--storage-dir: '/lustre/cb' is one directory shared by 1024 nodes, whose 8192 file(s) "
            "of 256.0 MiB need 2.0 TiB free in all; it has 100.0 GiB (use --file-bytes, fewer "
            "nodes, or a directory on each node's own disk)");
}

TEST(SharedDirectory, TheStorageCheckReadsOnlyItsOwnRanksFilesAndSkipsProbes) {
  TempDir dir;
  RunConfig config;
  kStorageDir.set(config, dir.str());
  kFileBytes.set(config, std::uint64_t{64 << 10});
  const StorageReads reads{{16 << 10}, {1}};
  // Rank 5's file, not a clusterbench file: node of ranks 0-1 leaves it to rank 5's node, which
  // refuses it; a probe of another node is passed over, a name merely like one is not.
  test::write_text(dir.path() / "clusterbench-rank5.dat", std::string(5000, 'x'));
  test::write_text(dir.path() / "clusterbench-probe-00000000000000aa", "");
  const DirectoryDemand d = check_storage_dir(config, reads, {0, 1});
  EXPECT_EQ(d.files, 2);
  EXPECT_EQ(d.path, fs::canonical(dir.path()).string());
  EXPECT_EQ(d.bytes, 2 * d.file_bytes);
  EXPECT_THROW(check_storage_dir(config, reads, {4, 5}), InputError);
  test::write_text(dir.path() / "clusterbench-probe-x", "");
  EXPECT_THROW(check_storage_dir(config, reads, {0, 1}), InputError);
}

} // namespace
} // namespace cb
