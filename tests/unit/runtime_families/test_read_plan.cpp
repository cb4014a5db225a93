#include <gtest/gtest.h>

#include <algorithm>

#include "storage/read_plan.hpp"

namespace cb {
namespace {

TEST(ReadPlan, SequentialCoversWholeBlocksAfterTheHeader) {
  const auto o = sequential_offsets(10 << 20, 4 << 20, 4096);
  ASSERT_EQ(o.size(), 2u); // the 2 MiB tail is not a whole block
  EXPECT_EQ(o[0], 4096u);
  EXPECT_EQ(o[1], 4096u + (4 << 20));
  EXPECT_TRUE(sequential_offsets(1024, 4096, 0).empty());
  EXPECT_TRUE(sequential_offsets(1024, 0, 0).empty());
}

TEST(ReadPlan, RandomIsAFixedPermutationOfTheSameBlocks) {
  auto seq = sequential_offsets(64 << 20, 1 << 20, 4096);
  auto rnd = random_offsets(64 << 20, 1 << 20, 4096, 7);
  EXPECT_NE(seq, rnd);
  EXPECT_EQ(rnd, random_offsets(64 << 20, 1 << 20, 4096, 7));
  EXPECT_NE(rnd, random_offsets(64 << 20, 1 << 20, 4096, 8));
  std::sort(rnd.begin(), rnd.end());
  EXPECT_EQ(seq, rnd);
}

TEST(DoneRates, EqualRanksGiveOneRate) {
  const DoneRates r = done_rates({1e9, 1e9}, {0.5, 0.5});
  EXPECT_DOUBLE_EQ(r.first_done_gbps, 4.0);
  EXPECT_DOUBLE_EQ(r.last_done_gbps, 4.0);
}

TEST(DoneRates, ASlowReaderShows) {
  // Rank 0 reads 1 GB in 0.5 s, rank 1 in 2 s. When rank 0 finishes, rank 1 has read 0.25 GB:
  // first done = 1.25 GB / 0.5 s = 2.5 GB/s (the sum of the rates); last done = 2 GB / 2 s.
  const DoneRates r = done_rates({1e9, 1e9}, {0.5, 2.0});
  EXPECT_DOUBLE_EQ(r.first_done_gbps, 2.5);
  EXPECT_DOUBLE_EQ(r.last_done_gbps, 1.0);
}

TEST(DoneRates, EmptyOrMismatchedInputGivesZero) {
  EXPECT_EQ(done_rates({}, {}).last_done_gbps, 0.0);
  EXPECT_EQ(done_rates({1}, {}).first_done_gbps, 0.0);
  EXPECT_EQ(done_rates({1}, {0}).first_done_gbps, 0.0);
}

} // namespace
} // namespace cb
