// The checkpoint cases' arithmetic (size, shards, a node's worst count), their shard file (a
// save read back, a flipped byte found) and their checks before anything is written.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "runtime/host_backend.hpp"
#include "storage/block_reader.hpp"
#include "storage/checkpoint_case.hpp"
#include "storage/checkpoint_file.hpp"
#include "storage/checkpoint_memory.hpp"
#include "storage/checkpoint_plan.hpp"
#include "storage/read_plan.hpp"
#include "storage/storage_dir.hpp"
#include "storage/storage_options.hpp"
#include "temp_dir.hpp"

namespace cb {
namespace {

constexpr std::uint64_t K4 = 4096, M1 = 1 << 20;

TEST(CheckpointPlan, FourteenBytesPerParameterInWholeChunks) {
  EXPECT_EQ(checkpoint_total_bytes(0, 8e9), 112'000'000'000ull); // whole chunks already
  EXPECT_EQ(checkpoint_total_bytes(0, 7e9), 98'000'003'072ull);  // 98e9 rounded up to 4 KiB
  EXPECT_EQ(checkpoint_total_bytes(0, 1), K4);
  EXPECT_EQ(checkpoint_total_bytes(64 * M1, 8e9), 64 * M1); // the flag wins
  EXPECT_EQ(checkpoint_total_bytes(5000, 0), 2 * K4);
  EXPECT_THROW(checkpoint_total_bytes(0, 0), InputError);
  EXPECT_THROW(checkpoint_total_bytes(0, 1e300), InputError);
  EXPECT_THROW(checkpoint_total_bytes((1ull << 50) + 1, 0), InputError);
  try {
    checkpoint_total_bytes(1ull << 60, 0);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--checkpoint-bytes"), std::string::npos) << e.what();
  }
}

TEST(CheckpointPlan, ShardsAreEqualWholeBlocksCoveringTheCheckpoint) {
  EXPECT_EQ(checkpoint_shard_bytes(64 * M1, 1, M1), 64 * M1);
  EXPECT_EQ(checkpoint_shard_bytes(64 * M1, 4, M1), 16 * M1);
  EXPECT_EQ(checkpoint_shard_bytes(64 * M1, 3, M1), 22 * M1); // 21.33 MiB up to whole blocks
  EXPECT_EQ(checkpoint_shard_bytes(K4, 8, M1), M1);           // at least one block each
  for (int ranks : {1, 2, 3, 7, 64, 1000}) {
    for (std::uint64_t unit : {K4, 64 * K4, M1, 16 * M1}) {
      const std::uint64_t total = 1'234'567 * K4;
      const std::uint64_t shard = checkpoint_shard_bytes(total, ranks, unit);
      EXPECT_EQ(shard % unit, 0u);
      EXPECT_GE(shard * ranks, total);
      EXPECT_LT(shard * ranks, total + ranks * unit);
    }
  }
}

// The most a node's ranks hold at any count k (ranks [0, k) take part), counted one k at a time.
std::uint64_t peak_by_every_count(std::uint64_t total, const std::vector<int>& node, int world,
                                  std::uint64_t unit) {
  std::uint64_t peak = 0;
  for (int k = 1; k <= world; ++k) {
    const auto taking_part = std::count_if(node.begin(), node.end(), [&](int r) { return r < k; });
    peak = std::max(peak, static_cast<std::uint64_t>(taking_part) *
                              checkpoint_shard_bytes(total, k, unit));
  }
  return peak;
}

// O_DIRECT needs 4 KiB; blocks and shards from 256 KiB up are in 2 MiB pages where the kernel
// gives them, whole pages, so a 1 MiB block never straddles two.
TEST(IoMemory, PageAlignedAndHugePageAlignedFrom256KiB) {
  EXPECT_EQ(io_memory_alignment(1), K4);
  EXPECT_EQ(io_memory_alignment(kIoHugeFrom - K4), K4);
  EXPECT_EQ(io_memory_alignment(kIoHugeFrom), 2 * M1);
  EXPECT_EQ(io_memory_alignment(M1), 2 * M1);
  EXPECT_EQ(io_memory_alignment(1ull << 40), 2 * M1);
  for (std::uint64_t bytes : {K4, 3 * K4, M1, 2 * M1, 5 * M1 + K4}) {
    const AlignedBytes p = aligned_bytes(bytes);
    ASSERT_NE(p.get(), nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p.get()) % io_memory_alignment(bytes), 0u) << bytes;
    std::memset(p.get(), 0x5a, bytes); // the whole size is usable
  }
}

// The page size a record reports: the AnonHugePages of the one mapping that holds the buffer,
// read from smaps as the kernel writes it (fields after each "start-end perms ..." header).
TEST(IoMemory, HugeBytesComeFromTheMappingHoldingTheAddress) {
  const std::string smaps = "55d0a000-55d0b000 r--p 00000000 08:01 1234   /usr/bin/clusterbench\n"
                            "Size:                  4 kB\n"
                            "AnonHugePages:         0 kB\n"
                            "7f0000000000-7f0000a00000 rw-p 00000000 00:00 0 \n"
                            "Size:              10240 kB\n"
                            "Rss:               10240 kB\n"
                            "AnonHugePages:      8192 kB\n"
                            "VmFlags: rd wr mr mw me ac sd hg\n"
                            "7ffc0000-7ffc1000 rw-p 00000000 00:00 0   [stack]\n"
                            "AnonHugePages:         0 kB\n";
  EXPECT_EQ(smaps_huge_bytes(smaps, 0x7f0000000000), 8192u * 1024);
  EXPECT_EQ(smaps_huge_bytes(smaps, 0x7f00009fffff), 8192u * 1024);
  EXPECT_EQ(smaps_huge_bytes(smaps, 0x55d0a800), 0u);
  EXPECT_FALSE(smaps_huge_bytes(smaps, 0x7f0000a00000).has_value()); // the end is outside
  EXPECT_FALSE(smaps_huge_bytes(smaps, 0x1000).has_value());
  EXPECT_FALSE(smaps_huge_bytes("garbage-line here\nAnonHugePages: x kB\n", 0x10).has_value());
}

// On this machine, whatever the kernel gives: never more than the buffer, and a readable answer.
TEST(IoMemory, HugeBytesOfARealBufferAreAtMostItsSize) {
  const std::uint64_t bytes = 8 * M1;
  const AlignedBytes p = aligned_bytes(bytes);
  std::memset(p.get(), 1, bytes);
  EXPECT_LE(io_memory_huge_bytes(p.get(), bytes), bytes);
}

TEST(CheckpointPlan, NodePeakIsTheWorstCountOfAnySweep) {
  const std::uint64_t total = 1000 * M1 + 12 * K4;
  // Node 0 holds it all at one rank, and a little more at four, its shards rounded up to blocks.
  EXPECT_EQ(checkpoint_node_peak_bytes(total, {0, 1, 2, 3}, M1), 4 * 251 * M1);
  EXPECT_EQ(checkpoint_node_peak_bytes(total, {0}, M1), 1001 * M1);
  for (int per_node : {1, 3, 8}) {
    for (int node = 0; node < 6; ++node) {
      std::vector<int> ranks;
      for (int r = 0; r < per_node; ++r)
        ranks.push_back(node * per_node + r);
      std::reverse(ranks.begin(), ranks.end()); // any order
      EXPECT_EQ(checkpoint_node_peak_bytes(total, ranks, M1),
                peak_by_every_count(total, ranks, 6 * per_node, M1))
          << per_node << " ranks per node, node " << node;
    }
  }
  EXPECT_EQ(checkpoint_node_peak_bytes(total, {}, M1), 0u);
}

TEST(CheckpointPlan, ShardFilesAreTheFamilysOwnNames) {
  EXPECT_EQ(checkpoint_file_name(12), "clusterbench-ckpt12.dat");
  EXPECT_TRUE(is_storage_file_name("clusterbench-ckpt0.dat"));
  EXPECT_EQ(storage_file_rank("clusterbench-ckpt12.dat"), 12);
  EXPECT_EQ(storage_file_rank("clusterbench-rank12.dat"), 12);
  EXPECT_FALSE(is_storage_file_name("clusterbench-ckpt.dat"));
  EXPECT_FALSE(is_storage_file_name("clusterbench-ckpt01.dat"));
  EXPECT_NE(checkpoint_seed(0), checkpoint_seed(1));
  EXPECT_NE(checkpoint_seed(3), storage_file_seed(3));
}

class ShardFile : public ::testing::TestWithParam<bool> {
protected:
  static constexpr std::uint64_t kShard = 2 * M1;
  void SetUp() override {
    dir.prepare_file(name, kShard, seed);
    state = aligned_bytes(kShard);
    fill_checkpoint_state(seed, state.get(), kShard);
  }
  test::TempDir tmp;
  StorageDir dir{tmp.str(), false};
  std::string name = checkpoint_file_name(0);
  std::uint64_t seed = checkpoint_seed(0);
  AlignedBytes state{nullptr, std::free};
};

TEST_P(ShardFile, ASaveReadsBackAsTheStateAndAFlippedByteIsFound) {
  CheckpointFile file(dir, name, kShard, seed, GetParam());
  file.mark(false);
  EXPECT_EQ(dir.inspect(name).kind, FileKind::ours_incomplete); // never restored from
  ASSERT_EQ(file.drop_data(), "");
  // The old checkpoint gone, the header kept; the save extends the file as it writes.
  EXPECT_EQ(std::filesystem::file_size(tmp.path() / name), kStorageHeaderBytes);
  ASSERT_EQ(file.write(state.get(), 256 * K4), "");
  EXPECT_EQ(std::filesystem::file_size(tmp.path() / name), storage_file_total_bytes(kShard));
  EXPECT_EQ(dir.inspect(name).kind, FileKind::ours_incomplete);
  file.mark(true);
  EXPECT_EQ(dir.inspect(name).kind, FileKind::ours_complete);

  // The restore: read into cleared memory, checked there.
  BlockReader reader(dir.fd(), dir.path(), name, 256 * K4, 1, GetParam());
  AlignedBytes landing = aligned_bytes(kShard);
  std::memset(landing.get(), 0, kShard);
  reader.drop_cache();
  ASSERT_EQ(
      reader.read_into(sequential_offsets(kShard, 256 * K4, kStorageHeaderBytes), landing.get()),
      "");
  EXPECT_EQ(std::memcmp(landing.get(), state.get(), kShard), 0);
  EXPECT_EQ(check_storage_chunks(seed, 0, landing.get(), kShard).bad_chunks, 0u);
  // Another rank's shard is not this one's.
  EXPECT_EQ(check_storage_chunks(checkpoint_seed(1), 0, landing.get(), kShard).bad_chunks,
            kShard / K4);

  // A byte changed on the device: the next restore's check names the chunk.
  {
    const int fd = ::open((tmp.path() / name).c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    const unsigned char x = 0x5a;
    ASSERT_EQ(::pwrite(fd, &x, 1, kStorageHeaderBytes + 5 * K4 + 100), 1);
    ::fsync(fd);
    ::close(fd);
  }
  std::string error;
  const ChunkCheck check = reader.verify_all(kShard, seed, &error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(check.bad_chunks, 1u);
  EXPECT_EQ(check.first_bad_chunk, 5u);
}

// The save and restore through staging buffers (the GPU path's host half): blocks arrive one by
// one, are written where they belong, and come back one by one; a block written at the wrong
// offset is named by the shard's check.
TEST_P(ShardFile, BlockByBlockSaveAndRestoreThroughAStagingBuffer) {
  constexpr std::size_t kBlock = 64 * K4;
  CheckpointFile file(dir, name, kShard, seed, GetParam());
  ASSERT_EQ(file.drop_data(), "");
  AlignedBytes staging = aligned_bytes(kBlock);
  const std::uint64_t blocks = kShard / kBlock;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    std::memcpy(staging.get(), state.get() + b * kBlock, kBlock); // as a copy from the GPU lands
    ASSERT_EQ(file.write_block(staging.get(), kBlock, b * kBlock), "");
  }
  ASSERT_EQ(file.sync(), "");
  file.drop_cache();

  BlockReader reader(dir.fd(), dir.path(), name, kBlock, 1, GetParam());
  AlignedBytes landing = aligned_bytes(kShard);
  std::memset(landing.get(), 0, kShard);
  const auto offsets = sequential_offsets(kShard, kBlock, kStorageHeaderBytes);
  ASSERT_EQ(offsets.size(), blocks);
  for (std::uint64_t b = 0; b < blocks; ++b) {
    ASSERT_EQ(reader.read_block(offsets[b], staging.get()), "");
    std::memcpy(landing.get() + b * kBlock, staging.get(), kBlock); // as a copy to the GPU lands
  }
  EXPECT_EQ(std::memcmp(landing.get(), state.get(), kShard), 0);
  EXPECT_EQ(check_storage_chunks(seed, 0, landing.get(), kShard).bad_chunks, 0u);

  // Block 1's bytes saved at block 0's place: every chunk of block 0 is wrong, the first named.
  ASSERT_EQ(file.write_block(state.get() + kBlock, kBlock, 0), "");
  ASSERT_EQ(file.sync(), "");
  file.drop_cache();
  ASSERT_EQ(reader.read_block(offsets[0], landing.get()), "");
  const ChunkCheck check = check_storage_chunks(seed, 0, landing.get(), kShard);
  EXPECT_EQ(check.bad_chunks, kBlock / K4);
  EXPECT_EQ(check.first_bad_chunk, 0u);
  // A block past the end of the file is an error naming where, not a crash.
  EXPECT_NE(reader.read_block(offsets.back() + kBlock, staging.get()).find("short read"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(DirectAndBuffered, ShardFile, ::testing::Values(false, true));

// The host backend keeps its checkpoints in host memory: no device shard is made for it, so the
// host path of every step is the case's own.
TEST(CheckpointMemory, TheHostBackendHasNoDeviceShard) {
  HostBackend host(0);
  AlignedBytes state = aligned_bytes(M1);
  fill_checkpoint_state(checkpoint_seed(0), state.get(), M1);
  for (CheckpointStep step : {CheckpointStep::write, CheckpointStep::read, CheckpointStep::stage})
    EXPECT_EQ(make_device_checkpoint(host, BackendKind::host, step, state.get(), M1, 256 * K4),
              nullptr);
}

TEST(CheckpointInput, RefusesBeforeWritingAnything) {
  test::TempDir tmp;
  RunConfig config;
  kStorageDir.set(config, tmp.str());
  kCheckpointBytes.set(config, std::uint64_t{64 * M1});
  const CheckpointCase write(CheckpointStep::write), stage(CheckpointStep::stage);
  const auto demand = write.check_input(config, {0, 1});
  ASSERT_TRUE(demand);
  EXPECT_EQ(demand->bytes, 64 * M1 + 2 * kStorageHeaderBytes);
  EXPECT_EQ(demand->files, 2);
  EXPECT_FALSE(stage.check_input(config, {0, 1})); // no files

  // More than the machine's memory: refused, naming the flag.
  kCheckpointBytes.set(config, std::uint64_t{1ull << 49});
  try {
    write.check_input(config, {0});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--checkpoint-bytes"), std::string::npos) << e.what();
  }
  // A block that is not whole chunks, or larger than the checkpoint.
  kCheckpointBytes.set(config, std::uint64_t{64 * M1});
  for (const char* blocks : {"6K", "128M"}) {
    config.axis_settings = {AxisSetting{"--block-sizes", "", "", blocks, ""}};
    try {
      write.check_input(config, {0});
      FAIL() << blocks;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--block-sizes: ", 0), 0u) << e.what();
    }
  }
  config.axis_settings = {};
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));

  // A file that is not ours stops it.
  test::write_text(tmp.path() / "notes.txt", "mine");
  EXPECT_THROW(write.check_input(config, {0}), InputError);
  EXPECT_TRUE(stage.check_input(config, {0}) == std::nullopt);
}

} // namespace
} // namespace cb
