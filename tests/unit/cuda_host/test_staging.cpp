#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "cuda/staging_schedule.hpp"
#include "cuda/storage_to_gpu.hpp"

namespace cb::cuda {
namespace {

TEST(Staging, DoubleBufferOverlapsReadOfNextBlockWithCopyOfThis) {
  const auto steps = staging_schedule(5, 2);
  std::set<int> read, copied;
  std::map<int, int> copy_pending_on_buffer; // buffer -> block whose copy may still run
  std::size_t first_wait = steps.size();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& s = steps[i];
    switch (s.op) {
    case StagingOp::read:
      EXPECT_EQ(s.buffer, s.block % 2);
      // A buffer is refilled only after its previous copy was waited for.
      EXPECT_EQ(copy_pending_on_buffer.count(s.buffer), 0u) << "block " << s.block;
      EXPECT_TRUE(read.insert(s.block).second);
      break;
    case StagingOp::copy:
      EXPECT_TRUE(read.count(s.block)); // a block is copied only after it was read
      EXPECT_TRUE(copied.insert(s.block).second);
      copy_pending_on_buffer[s.buffer] = s.block;
      break;
    case StagingOp::wait_copy:
      EXPECT_EQ(copy_pending_on_buffer.at(s.buffer), s.block);
      copy_pending_on_buffer.erase(s.buffer);
      first_wait = std::min(first_wait, i);
      break;
    case StagingOp::finish:
      EXPECT_EQ(i, steps.size() - 1);
      break;
    }
  }
  EXPECT_EQ(read.size(), 5u);
  EXPECT_EQ(copied.size(), 5u);
  // Overlap: block 1 is read before anything waits for block 0's copy.
  const auto read1 = std::find(steps.begin(), steps.end(), StagingStep{StagingOp::read, 1, 1});
  ASSERT_NE(read1, steps.end());
  EXPECT_LT(static_cast<std::size_t>(read1 - steps.begin()), first_wait);
}

TEST(Staging, SingleBufferSerialises) {
  const auto steps = staging_schedule(3, 1);
  const std::vector<StagingStep> want = {
      {StagingOp::read, 0, 0}, {StagingOp::copy, 0, 0}, {StagingOp::wait_copy, 0, 0},
      {StagingOp::read, 1, 0}, {StagingOp::copy, 1, 0}, {StagingOp::wait_copy, 1, 0},
      {StagingOp::read, 2, 0}, {StagingOp::copy, 2, 0}, {StagingOp::finish, -1, -1}};
  EXPECT_EQ(steps, want);
}

// The save from GPU memory, simulated step by step: what each staging buffer holds, which copies
// may still be running, and the order the blocks reach storage.
void check_save_schedule(int blocks, int buffers) {
  SCOPED_TRACE("blocks " + std::to_string(blocks) + ", buffers " + std::to_string(buffers));
  const auto steps = save_schedule(blocks, buffers);
  std::map<int, int> holds;   // buffer -> block copied into it and not yet written
  std::set<int> copy_running; // buffers whose copy has not been waited for
  std::vector<int> written;
  int copies_before_first_write = 0;
  for (const SaveStep& s : steps) {
    ASSERT_GE(s.buffer, 0);
    ASSERT_LT(s.buffer, std::max(buffers, 1));
    switch (s.op) {
    case SaveOp::copy:
      EXPECT_EQ(s.buffer, s.block % std::max(buffers, 1));
      // A buffer is copied into again only after the block it held was written.
      EXPECT_EQ(holds.count(s.buffer), 0u) << "block " << s.block;
      holds[s.buffer] = s.block;
      copy_running.insert(s.buffer);
      if (written.empty())
        ++copies_before_first_write;
      break;
    case SaveOp::wait_copy:
      EXPECT_EQ(holds.at(s.buffer), s.block);
      copy_running.erase(s.buffer);
      break;
    case SaveOp::write:
      // Written only from a finished copy of this very block, in the file's order.
      EXPECT_EQ(holds.at(s.buffer), s.block);
      EXPECT_EQ(copy_running.count(s.buffer), 0u);
      EXPECT_EQ(s.block, static_cast<int>(written.size()));
      written.push_back(s.block);
      holds.erase(s.buffer);
      // The copy of a later block is on its way while this one is written (double buffering).
      if (buffers >= 2 && s.block + 1 < blocks) {
        EXPECT_FALSE(holds.empty()) << "nothing copied during the write of block " << s.block;
      }
      break;
    }
  }
  EXPECT_EQ(static_cast<int>(written.size()), blocks);
  EXPECT_TRUE(holds.empty());
  EXPECT_EQ(copies_before_first_write, std::min(blocks, std::max(buffers, 1)));
}

TEST(Staging, SaveCopiesTheNextBlockFromTheGpuWhileThisOneIsWritten) {
  for (int blocks : {0, 1, 2, 3, 5, 64}) {
    for (int buffers : {1, 2, 3})
      check_save_schedule(blocks, buffers);
  }
}

TEST(Staging, SaveThroughTwoBuffersInOrder) {
  const std::vector<SaveStep> want = {
      {SaveOp::copy, 0, 0},  {SaveOp::copy, 1, 1},      {SaveOp::wait_copy, 0, 0},
      {SaveOp::write, 0, 0}, {SaveOp::copy, 2, 0},      {SaveOp::wait_copy, 1, 1},
      {SaveOp::write, 1, 1}, {SaveOp::wait_copy, 2, 0}, {SaveOp::write, 2, 0}};
  EXPECT_EQ(save_schedule(3, 2), want);
  EXPECT_TRUE(save_schedule(0, 2).empty());
}

TEST(Staging, PatternIsDeterministicAndDiffersByFile) {
  EXPECT_EQ(pattern_word(1, 42), pattern_word(1, 42));
  EXPECT_NE(pattern_word(1, 42), pattern_word(2, 42));
  EXPECT_NE(pattern_word(1, 42), pattern_word(1, 43));
  std::vector<std::uint64_t> words(4);
  fill_pattern(words.data(), 7, 16, 32); // byte 16 = word 2
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(words[static_cast<std::size_t>(i)],
              pattern_word(7, 2 + static_cast<std::uint64_t>(i)));
}

class StorageFiles : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cb-cuda-storage-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(StorageFiles, CreatesThenReusesOurFile) {
  const std::string path = (dir_ / "rank0.bin").string();
  const ReadFile f = prepare_read_file(path, 1 << 20, 1);
  EXPECT_EQ(std::filesystem::file_size(path), kHeaderBytes + (1u << 20));
  // The data after the header is the pattern.
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(kHeaderBytes + 8 * 1000));
  std::uint64_t word = 0;
  in.read(reinterpret_cast<char*>(&word), sizeof word);
  EXPECT_EQ(word, pattern_word(1, 1000));
  const auto written = std::filesystem::last_write_time(path);
  prepare_read_file(path, 1 << 20, 1); // reused, not rewritten
  EXPECT_EQ(std::filesystem::last_write_time(path), written);
  EXPECT_EQ(f.data_bytes, 1u << 20);
}

TEST_F(StorageFiles, RefusesToOverwriteAFileThatIsNotOurs) {
  const std::string path = (dir_ / "rank0.bin").string();
  std::ofstream(path) << "somebody's data\n";
  try {
    prepare_read_file(path, 1 << 20, 1);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a clusterbench file"), std::string::npos);
  }
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "somebody's data");
}

TEST_F(StorageFiles, RefusesToFollowALink) {
  const std::filesystem::path outside = dir_ / "outside.txt";
  std::ofstream(outside) << "keep\n";
  std::filesystem::create_symlink(outside, dir_ / "rank0.bin");
  EXPECT_THROW(prepare_read_file((dir_ / "rank0.bin").string(), 1 << 20, 1), InputError);
  EXPECT_EQ(std::filesystem::file_size(outside), 5u);
}

TEST_F(StorageFiles, RewritesOurFileOfAnotherSize) {
  const std::string path = (dir_ / "rank0.bin").string();
  prepare_read_file(path, 1 << 20, 1);
  prepare_read_file(path, 2 << 20, 1);
  EXPECT_EQ(std::filesystem::file_size(path), kHeaderBytes + (2u << 20));
}

} // namespace
} // namespace cb::cuda
