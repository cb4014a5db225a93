#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"
#include "storage/storage_dir.hpp"
#include "storage/storage_options.hpp"
#include "temp_dir.hpp"

namespace cb {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::TempDir;
using test::write_text;

// "" as the command line has it: no --storage-dir, clusterbench's own directory.
RunConfig config_for(const std::string& dir) {
  RunConfig c;
  if (!dir.empty())
    kStorageDir.set(c, dir);
  kFileBytes.set(c, std::uint64_t{64 << 10});
  return c;
}

// 16K reads, one in flight: what the directory tests read with.
const StorageReads kReads{{16 << 10}, {1}};

// The InputError's message, or "" when nothing was thrown.
template <typename F> std::string input_error(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(StorageNames, OnlyOurPattern) {
  EXPECT_EQ(storage_file_name(3), "clusterbench-rank3.dat");
  EXPECT_TRUE(is_storage_file_name("clusterbench-rank0.dat"));
  EXPECT_TRUE(is_storage_file_name("clusterbench-rank127.dat"));
  EXPECT_FALSE(is_storage_file_name("clusterbench-rank.dat"));
  EXPECT_FALSE(is_storage_file_name("clusterbench-rank01.dat"));
  EXPECT_FALSE(is_storage_file_name("clusterbench-rank1.dat.bak"));
  EXPECT_FALSE(is_storage_file_name("data.bin"));
  EXPECT_NE(storage_file_seed(0), storage_file_seed(1));
}

TEST(StorageSafety, AnEmptyDirectoryIsAccepted) {
  TempDir dir;
  EXPECT_NO_THROW(check_storage_dir(config_for(dir.str()), kReads, {0, 1}));
}

TEST(StorageSafety, TheFilesToWriteAreTheNodesRanksNotTheFirstRanksOfTheJob) {
  // A second node's ranks 8 and 9 find their own files of the last run: nothing to write. Their
  // count matched against ranks 0 and 1's names would ask for both files' room again.
  auto ours = [](int rank, std::uint64_t bytes) {
    EntryInfo e;
    e.name = storage_file_name(rank);
    e.kind = FileKind::ours_complete;
    e.header = {bytes, storage_file_seed(rank), true};
    return e;
  };
  const std::vector<EntryInfo> entries = {ours(8, 1 << 20), ours(9, 1 << 20)};
  EXPECT_EQ(storage_files_to_write(entries, {8, 9}, 1 << 20), 0);
  EXPECT_EQ(storage_files_to_write(entries, {0, 1}, 1 << 20), 2);
  EXPECT_EQ(storage_files_to_write(entries, {8, 9, 10}, 1 << 20), 1);
  EXPECT_EQ(storage_files_to_write(entries, {8, 9}, 2 << 20), 2) << "another size is rewritten";
  EntryInfo half = ours(8, 1 << 20);
  half.kind = FileKind::ours_incomplete;
  EXPECT_EQ(storage_files_to_write({half}, {8}, 1 << 20), 1);
  EntryInfo other_seed = ours(9, 1 << 20);
  other_seed.header.seed = storage_file_seed(8);
  EXPECT_EQ(storage_files_to_write({other_seed}, {9}, 1 << 20), 1);
}

TEST(StorageSafety, AFileRewrittenAtAnotherSizeNeedsOnlyTheDifference) {
  // A rerun with a larger --file-bytes rewrites rank 8's file in place: it needs the growth, not
  // the whole file again (summed over a thousand nodes, the whole would refuse runs that fit).
  EntryInfo held;
  held.name = storage_file_name(8);
  held.kind = FileKind::ours_complete;
  held.header = {1 << 20, storage_file_seed(8), true};
  held.size = storage_file_total_bytes(1 << 20);
  const StorageWrites grow = storage_writes({held}, {8, 9}, 3 << 20);
  EXPECT_EQ(grow.files, 2);
  EXPECT_EQ(grow.bytes, 2 * storage_file_total_bytes(3 << 20) - held.size);
  EXPECT_EQ(storage_writes({held}, {8}, 1 << 20).bytes, 0u) << "reused as it is";
  EXPECT_EQ(storage_writes({held}, {8}, 1 << 10).bytes, 0u) << "shrinks in place";
}

TEST(StorageSafety, MissingDirectoryIsRefused) {
  TempDir dir;
  const std::string missing = dir.str() + "/nope";
  const std::string msg = input_error([&] { check_storage_dir(config_for(missing), kReads); });
  EXPECT_TRUE(contains(msg, "--storage-dir")) << msg;
  EXPECT_TRUE(contains(msg, "does not exist")) << msg;
  EXPECT_FALSE(fs::exists(missing)) << "a directory the user named is never created";
}

TEST(StorageSafety, AFileIsNotADirectory) {
  TempDir dir;
  write_text(dir.path() / "plain", "x");
  const std::string msg = input_error([&] { check_storage_dir(config_for(dir.str() + "/plain"), kReads); });
  EXPECT_TRUE(contains(msg, "is not a directory")) << msg;
}

TEST(StorageSafety, ForeignFilesAreRefusedByName) {
  TempDir dir;
  write_text(dir.path() / "notes.txt", "mine");
  const std::string msg = input_error([&] { check_storage_dir(config_for(dir.str()), kReads); });
  EXPECT_TRUE(contains(msg, "notes.txt")) << msg;
  EXPECT_TRUE(contains(msg, "not a clusterbench file")) << msg;
}

TEST(StorageSafety, AFileWithOurNameButNoHeaderIsNeverOverwritten) {
  TempDir dir;
  const std::string text(100000, 'u');
  write_text(dir.path() / "clusterbench-rank0.dat", text);
  EXPECT_TRUE(contains(input_error([&] { check_storage_dir(config_for(dir.str()), kReads); }),
                       "clusterbench-rank0.dat"));
  StorageDir d(dir.str(), false);
  const std::string msg =
      input_error([&] { d.prepare_file("clusterbench-rank0.dat", 64 << 10, 1); });
  EXPECT_TRUE(contains(msg, "no clusterbench header")) << msg;
  EXPECT_EQ(read_text(dir.path() / "clusterbench-rank0.dat"), text);
  EXPECT_FALSE(d.remove_if_ours("clusterbench-rank0.dat"));
  EXPECT_TRUE(fs::exists(dir.path() / "clusterbench-rank0.dat"));
}

TEST(StorageSafety, AnEmptyFileWithOurNameIsOursAnyOtherIsNot) {
  TempDir dir;
  write_text(dir.path() / "clusterbench-rank1.dat", ""); // another rank's, being created
  EXPECT_NO_THROW(check_storage_dir(config_for(dir.str()), kReads));
  write_text(dir.path() / "empty.dat", "");
  EXPECT_TRUE(
      contains(input_error([&] { check_storage_dir(config_for(dir.str()), kReads); }), "empty.dat"));
}

TEST(StorageSafety, ASymlinkPointingOutsideIsNeverFollowed) {
  TempDir dir, outside;
  const fs::path target = outside.path() / "precious";
  write_text(target, "do not touch");
  fs::create_symlink(target, dir.path() / "clusterbench-rank0.dat");

  const std::string msg = input_error([&] { check_storage_dir(config_for(dir.str()), kReads); });
  EXPECT_TRUE(contains(msg, "symbolic link")) << msg;
  EXPECT_TRUE(contains(msg, "clusterbench-rank0.dat")) << msg;

  StorageDir d(dir.str(), false);
  EXPECT_TRUE(contains(input_error([&] { d.prepare_file("clusterbench-rank0.dat", 64 << 10, 1); }),
                       "symbolic link"));
  EXPECT_FALSE(d.remove_if_ours("clusterbench-rank0.dat"));
  EXPECT_EQ(read_text(target), "do not touch");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "clusterbench-rank0.dat"));
}

TEST(StorageSafety, SubdirectoriesAndHardLinksAreNotOurs) {
  {
    TempDir dir;
    fs::create_directory(dir.path() / "sub");
    EXPECT_TRUE(
        contains(input_error([&] { check_storage_dir(config_for(dir.str()), kReads); }), "a directory"));
  }
  TempDir dir, outside;
  StorageDir d(dir.str(), false);
  d.prepare_file("clusterbench-rank0.dat", 64 << 10, storage_file_seed(0));
  fs::create_hard_link(dir.path() / "clusterbench-rank0.dat", outside.path() / "alias");
  EXPECT_TRUE(
      contains(input_error([&] { check_storage_dir(config_for(dir.str()), kReads); }), "hard links"));
  EXPECT_FALSE(d.remove_if_ours("clusterbench-rank0.dat"));
}

TEST(StorageSafety, NotEnoughSpaceSaysHowMuchIsNeeded) {
  TempDir dir;
  RunConfig c = config_for(dir.str());
  kFileBytes.set(c, std::uint64_t{1ull << 50}); // 1 PiB per rank
  const std::string msg = input_error([&] { check_storage_dir(c, kReads, {0, 1}); });
  EXPECT_TRUE(contains(msg, "needs")) << msg;
  EXPECT_TRUE(contains(msg, "free")) << msg;
  EXPECT_TRUE(fs::is_empty(dir.path())) << "nothing is written when space is short";
}

TEST(StorageSafety, ValidFilesOfOursCountAsSpaceAlreadyThere) {
  TempDir dir;
  StorageDir d(dir.str(), false);
  d.prepare_file("clusterbench-rank0.dat", 64 << 10, storage_file_seed(0));
  EXPECT_NO_THROW(check_storage_dir(config_for(dir.str()), kReads, {0}));
}

TEST(StorageOptions, BlockSizesQueueDepthAndFileSize) {
  TempDir dir;
  RunConfig c = config_for(dir.str());
  StorageReads r{{0}, {1}};
  EXPECT_TRUE(contains(input_error([&] { check_storage_options(c, r); }), "greater than 0"));
  r.blocks = {1000};
  const std::string msg = input_error([&] { check_storage_options(c, r); });
  EXPECT_TRUE(contains(msg, "--block-sizes")) << msg;
  EXPECT_TRUE(contains(msg, "O_DIRECT")) << msg;
  kBuffered.set(c, true); // buffered reads take any size
  EXPECT_NO_THROW(check_storage_options(c, r));
  r.blocks = {1 << 20};
  EXPECT_TRUE(contains(input_error([&] { check_storage_options(c, r); }), "larger than the file"));
  r.blocks = {16 << 10};
  kFileBytes.set(c, std::uint64_t{5000});
  EXPECT_TRUE(contains(input_error([&] { check_storage_options(c, r); }), "--file-bytes"));
  kFileBytes.set(c, std::uint64_t{1ull << 30});
  r.blocks = {16 << 20};
  r.queue_depths = {1, 128}; // the deepest of the axis' values counts
  EXPECT_TRUE(contains(input_error([&] { check_storage_options(c, r); }), "--queue-depth"));
}

TEST(StorageOptions, ReadsComeFromTheFamilyAxes) {
  RunConfig c;
  EXPECT_EQ(storage_reads("seq_read", c).blocks, (std::vector<std::uint64_t>{1 << 20}));
  EXPECT_EQ(storage_reads("seq_read", c).queue_depths, (std::vector<std::uint64_t>{1}));
  c.axis_settings = {{"--block-sizes", "", "", "4K,1M", ""},
                     {"--axis", "rand_read", "queue_depth", "1:8", ""}};
  EXPECT_EQ(storage_reads("seq_read", c).blocks, (std::vector<std::uint64_t>{4096, 1 << 20}));
  EXPECT_EQ(storage_reads("seq_read", c).queue_depths, (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(storage_reads("rand_read", c).queue_depths, (std::vector<std::uint64_t>{1, 2, 4, 8}));
}

// The declared defaults (storage_options.hpp): the host's, and a GPU's, which reads on to the GPU.
TEST(StorageOptions, DefaultFileSizes) {
  RunConfig c;
  c.backend_kind = BackendKind::host;
  EXPECT_EQ(storage_file_bytes(c), 256ull << 20);
  c.quick = true;
  EXPECT_EQ(storage_file_bytes(c), 64ull << 20);
  c.backend_kind = BackendKind::cuda;
  EXPECT_EQ(storage_file_bytes(c), 256ull << 20);
  c.quick = false;
  EXPECT_EQ(storage_file_bytes(c), 1ull << 30);
  kFileBytes.set(c, std::uint64_t{8192});
  EXPECT_EQ(storage_file_bytes(c), 8192u);
}

TEST(StorageDirectory, TheDefaultOneIsCreatedInTmpdir) {
  TempDir tmp;
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", tmp.str().c_str(), 1);
  EXPECT_EQ(default_storage_dir(), tmp.str() + "/clusterbench-storage");
  EXPECT_NO_THROW(check_storage_dir(config_for(""), kReads));
  EXPECT_TRUE(fs::is_directory(tmp.path() / "clusterbench-storage"));
  if (old) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
}

TEST(StorageFiles, CreatedOnceThenReused) {
  TempDir dir;
  StorageDir d(dir.str(), false);
  EXPECT_TRUE(d.prepare_file("clusterbench-rank0.dat", 64 << 10, 5));
  EXPECT_EQ(fs::file_size(dir.path() / "clusterbench-rank0.dat"), kStorageHeaderBytes + (64 << 10));
  const EntryInfo info = d.inspect("clusterbench-rank0.dat");
  EXPECT_EQ(info.kind, FileKind::ours_complete);
  EXPECT_EQ(info.header.seed, 5u);
  EXPECT_FALSE(d.prepare_file("clusterbench-rank0.dat", 64 << 10, 5)) << "a valid file is reused";
  EXPECT_TRUE(d.prepare_file("clusterbench-rank0.dat", 128 << 10, 5)) << "another size rewrites";
  EXPECT_EQ(fs::file_size(dir.path() / "clusterbench-rank0.dat"),
            kStorageHeaderBytes + (128 << 10));
}

TEST(StorageFiles, AnIncompleteFileOfOursIsRewritten) {
  TempDir dir;
  StorageDir d(dir.str(), false);
  d.prepare_file("clusterbench-rank0.dat", 64 << 10, 5);
  fs::resize_file(dir.path() / "clusterbench-rank0.dat", 20000); // cut short, header intact
  EXPECT_EQ(d.inspect("clusterbench-rank0.dat").kind, FileKind::ours_incomplete);
  EXPECT_NO_THROW(check_storage_dir(config_for(dir.str()), kReads)) << "still ours";
  EXPECT_TRUE(d.prepare_file("clusterbench-rank0.dat", 64 << 10, 5));
  EXPECT_EQ(d.inspect("clusterbench-rank0.dat").kind, FileKind::ours_complete);
}

TEST(StorageFiles, CleanupRemovesOnlyOurs) {
  TempDir dir;
  StorageDir d(dir.str(), false);
  d.prepare_file("clusterbench-rank0.dat", 64 << 10, 5);
  write_text(dir.path() / "clusterbench-rank1.dat", "someone else's");
  EXPECT_TRUE(d.remove_if_ours("clusterbench-rank0.dat"));
  EXPECT_FALSE(fs::exists(dir.path() / "clusterbench-rank0.dat"));
  EXPECT_FALSE(d.remove_if_ours("clusterbench-rank1.dat"));
  EXPECT_TRUE(fs::exists(dir.path() / "clusterbench-rank1.dat"));
  EXPECT_FALSE(d.remove_if_ours("clusterbench-rank7.dat")); // absent: nothing to do
}

} // namespace
} // namespace cb
