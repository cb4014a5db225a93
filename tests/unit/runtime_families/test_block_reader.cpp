#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include "storage/block_reader.hpp"
#include "storage/read_plan.hpp"
#include "storage/storage_dir.hpp"
#include "temp_dir.hpp"

namespace cb {
namespace {

constexpr std::uint64_t kData = 1 << 20;
constexpr std::uint64_t kSeed = 99;

// A storage directory of its own holding rank 0's prepared file.
class PreparedFile : public ::testing::Test {
protected:
  void SetUp() override { dir.prepare_file("clusterbench-rank0.dat", kData, kSeed); }
  test::TempDir tmp;
  StorageDir dir{tmp.str(), false};
};

class BlockReaderTest : public PreparedFile,
                        public ::testing::WithParamInterface<std::tuple<int, bool>> {};

TEST_P(BlockReaderTest, ReadsEveryBlockAndVerifiesTheFile) {
  const auto [queue_depth, buffered] = GetParam();
  BlockReader reader(dir.fd(), dir.path(), "clusterbench-rank0.dat", 64 << 10, queue_depth,
                     buffered);
  if (buffered) {
    EXPECT_FALSE(reader.direct());
  }
  EXPECT_FALSE(reader.engine().empty());
  EXPECT_EQ(reader.read_pass(sequential_offsets(kData, 64 << 10, kStorageHeaderBytes)), "");
  EXPECT_EQ(reader.read_pass(random_offsets(kData, 64 << 10, kStorageHeaderBytes, 3)), "");
  std::string error;
  const ChunkCheck check = reader.verify_all(kData, kSeed, &error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(check.bad_chunks, 0u) << check.first_problem;
}

// A file cut short under the reader (as a failing device or a concurrent truncation would leave
// it): the pass ends with the error and where it happened, for the record's reason, instead of
// throwing (which would abort the whole job and lose the other records).
TEST_P(BlockReaderTest, AReadErrorMidPassIsReturnedWithItsOffset) {
  const auto [queue_depth, buffered] = GetParam();
  BlockReader reader(dir.fd(), dir.path(), "clusterbench-rank0.dat", 64 << 10, queue_depth,
                     buffered);
  const off_t cut = static_cast<off_t>(kStorageHeaderBytes + kData / 2);
  ASSERT_EQ(::truncate((tmp.str() + "/clusterbench-rank0.dat").c_str(), cut), 0);
  std::string error;
  EXPECT_NO_THROW(error =
                      reader.read_pass(sequential_offsets(kData, 64 << 10, kStorageHeaderBytes)));
  EXPECT_NE(error.find("short read"), std::string::npos) << error;
  EXPECT_NE(error.find("clusterbench-rank0.dat at byte " + std::to_string(cut)), std::string::npos)
      << error;
}

INSTANTIATE_TEST_SUITE_P(DepthsAndModes, BlockReaderTest,
                         ::testing::Combine(::testing::Values(1, 4), ::testing::Bool()));

TEST_F(PreparedFile, ACorruptedBlockOnDiskIsCaughtWithItsOffset) {
  const std::uint64_t bad_offset = kStorageHeaderBytes + 37 * kStorageChunkBytes + 123;
  {
    const int fd = ::open((tmp.str() + "/clusterbench-rank0.dat").c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    unsigned char byte = 0;
    ASSERT_EQ(::pread(fd, &byte, 1, static_cast<off_t>(bad_offset)), 1);
    byte ^= 0xFF;
    ASSERT_EQ(::pwrite(fd, &byte, 1, static_cast<off_t>(bad_offset)), 1);
    ::fsync(fd);
    ::close(fd);
  }
  // The header is intact, so the file is still ours and is reused, not rewritten.
  EXPECT_FALSE(dir.prepare_file("clusterbench-rank0.dat", kData, kSeed));
  BlockReader reader(dir.fd(), dir.path(), "clusterbench-rank0.dat", 1 << 20, 1, false);
  std::string error;
  const ChunkCheck check = reader.verify_all(kData, kSeed, &error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(check.bad_chunks, 1u);
  EXPECT_EQ(check.first_bad_chunk, 37u);
  const std::string at = std::to_string(kStorageHeaderBytes + 37 * kStorageChunkBytes);
  EXPECT_NE(check.first_problem.find("byte " + at), std::string::npos) << check.first_problem;
  EXPECT_NE(check.first_problem.find("checksum mismatch"), std::string::npos);
}

TEST_F(PreparedFile, FallsBackToPreadWhenIoUringCannotStartAndSaysSo) {
  // io_uring rings hold at most 32768 entries: a deeper queue makes io_uring_queue_init fail,
  // as it does where io_uring is forbidden.
  BlockReader reader(dir.fd(), dir.path(), "clusterbench-rank0.dat", 512, 65536, true);
  EXPECT_EQ(reader.engine(), "pread");
  ASSERT_FALSE(reader.notes().empty());
  EXPECT_NE(reader.notes().front().find("pread"), std::string::npos) << reader.notes().front();
  EXPECT_EQ(reader.read_pass(sequential_offsets(kData, 512, kStorageHeaderBytes)), "");
}

TEST_F(PreparedFile, AReadPastTheEndIsAnErrorNotACrash) {
  for (int depth : {1, 2}) {
    BlockReader reader(dir.fd(), dir.path(), "clusterbench-rank0.dat", 64 << 10, depth, false);
    const std::string error =
        reader.read_pass({kStorageHeaderBytes, kStorageHeaderBytes + (4 << 20)});
    EXPECT_NE(error.find("short read"), std::string::npos) << error;
    EXPECT_NE(error.find("clusterbench-rank0.dat"), std::string::npos) << error;
  }
}

} // namespace
} // namespace cb
