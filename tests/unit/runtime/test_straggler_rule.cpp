// The straggler rule alone (runtime/straggler.hpp), on per-rank summaries: who is named, who is
// not, and whose raw samples a record keeps.
#include <gtest/gtest.h>

#include <cmath>

#include "results/record.hpp"
#include "runtime/straggler.hpp"

namespace cb {
namespace {

// n ranks of median 1 ms sharing the shortest samples evenly.
std::vector<RankTiming> equal_ranks(std::size_t n) {
  return std::vector<RankTiming>(n, RankTiming{1e-3, 1.1e-3, 1.0 / static_cast<double>(n)});
}

TEST(StragglerRule, ChanceOfAShareIsRanksTimesTheBinomialTail) {
  // Two ranks, 10 samples, one of them the shortest in all 10: 2 x 0.5^10.
  EXPECT_NEAR(chance_of_share(10, 10, 2), 2.0 / 1024, 1e-12);
  // 9 or more of 10: 2 x (10 + 1) / 1024.
  EXPECT_NEAR(chance_of_share(9, 10, 2), 22.0 / 1024, 1e-12);
  // Eight ranks, all 5 samples: 8 x (1/8)^5.
  EXPECT_NEAR(chance_of_share(5, 5, 8), 8 * std::pow(0.125, 5), 1e-15);
  EXPECT_EQ(chance_of_share(0, 10, 4), 1.0);
  EXPECT_EQ(chance_of_share(3, 10, 1), 1.0);
  EXPECT_EQ(chance_of_share(1, 1000, 4), 1.0); // capped at 1
  // A thousand samples stay finite.
  EXPECT_GT(chance_of_share(600, 1000, 2), 0.0);
  EXPECT_LT(chance_of_share(600, 1000, 2), 1e-9);
}

TEST(StragglerRule, NamesTheRankShortestInMostSamplesAndClearlyBelowTheOthers) {
  // Rank 5 of 8 arrives late: shortest in 18 of 20 samples, its own time 0.6 of the others'.
  std::vector<RankTiming> ranks(8, RankTiming{1e-3, 1.2e-3, 0.1 / 7});
  ranks[5] = {0.6e-3, 0.7e-3, 0.9};
  const auto f = find_straggler(ranks, 20, 1);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->index, 5u);
  EXPECT_DOUBLE_EQ(f->median_s, 0.6e-3);
  EXPECT_DOUBLE_EQ(f->others_median_s, 1e-3);
  EXPECT_DOUBLE_EQ(f->shortest_share, 0.9);
  EXPECT_LT(f->chance, kStragglerChance);
}

TEST(StragglerRule, EqualRanksNameNobody) {
  for (std::size_t n : {2u, 3u, 8u, 1024u})
    EXPECT_FALSE(find_straggler(equal_ranks(n), 100, 1)) << n;
}

TEST(StragglerRule, ConsistentlyShortestButNotClearlyBelowIsNotNamed) {
  // Two equal MPI ranks where the barrier's exit order makes rank 0 the shortest in 17 of 18
  // samples while its median is 0.01 % below: the order alone names nobody.
  std::vector<RankTiming> ranks = {{5.758e-7, 6e-7, 17.0 / 18}, {5.7588e-7, 6e-7, 1.0 / 18}};
  EXPECT_FALSE(find_straggler(ranks, 18, 1));
  // 9 % below the others: still within the gap.
  ranks = {{0.91e-3, 1e-3, 0.95}, {1e-3, 1e-3, 0.05}, {1e-3, 1e-3, 0.0}};
  EXPECT_FALSE(find_straggler(ranks, 40, 1));
  ranks[0].median_s = 0.89e-3; // 11 % below
  EXPECT_TRUE(find_straggler(ranks, 40, 1));
}

TEST(StragglerRule, AWaitOfMicrosecondsPerBatchIsTheBarriersExitOrderNotAStraggler) {
  // Measured on two MPI ranks of one loaded host: a preempted calibration left a batch of 1 for
  // a 64-byte all_reduce, and rank 0, last out of every barrier, was the shortest in 98.8 % of
  // 1000 samples at 0.17 x the other's time: a wait of 0.63 us per batch.
  const std::vector<RankTiming> ranks = {{1.28e-7, 2e-7, 0.988}, {7.585e-7, 9e-7, 0.012}};
  EXPECT_FALSE(find_straggler(ranks, 1000, 1));
  // The same per-operation times over batches of 100 operations: 63 us per batch.
  const auto f = find_straggler(ranks, 1000, 100);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->index, 0u);
}

TEST(StragglerRule, ClearlyBelowButNotShortestInMostSamplesIsNotNamed) {
  std::vector<RankTiming> ranks(4, RankTiming{1e-3, 1e-3, 0.2});
  ranks[2] = {0.5e-3, 0.9e-3, 0.4}; // far below, but the shortest in only 40 % of samples
  EXPECT_FALSE(find_straggler(ranks, 50, 1));
  ranks[2].shortest_share = 0.5; // half is not most
  EXPECT_FALSE(find_straggler(ranks, 50, 1));
  ranks[2].shortest_share = 0.6;
  EXPECT_TRUE(find_straggler(ranks, 50, 1));
}

TEST(StragglerRule, TooFewSamplesOrRanksToSayConsistently) {
  std::vector<RankTiming> two = {{0.5e-3, 0.5e-3, 1.0}, {1e-3, 1e-3, 0.0}};
  // Two ranks: all of 10 samples happens by chance 1 in 512; all of 11, 1 in 1024.
  EXPECT_FALSE(find_straggler(two, 10, 1));
  EXPECT_TRUE(find_straggler(two, 11, 1));
  std::vector<RankTiming> eight(8, RankTiming{1e-3, 1e-3, 0.0});
  eight[0] = {0.5e-3, 0.5e-3, 1.0};
  EXPECT_FALSE(find_straggler(eight, kStragglerMinSamples - 1, 1));
  EXPECT_TRUE(find_straggler(eight, kStragglerMinSamples, 1));
  EXPECT_FALSE(find_straggler({{0.5e-3, 0.5e-3, 1.0}}, 100, 1)); // one rank has no others
  EXPECT_FALSE(find_straggler({}, 100, 1));
}

TEST(StragglerRule, KeepsRawSamplesOfTheStragglerTheSlowestAndAUsualRankOnly) {
  std::vector<RankTiming> ranks(1000);
  for (std::size_t i = 0; i < ranks.size(); ++i)
    ranks[i] = {1e-3 + static_cast<double>(i % 97) * 1e-6, 1.2e-3, 0.0};
  ranks[700] = {0.4e-3, 0.5e-3, 0.95};
  const auto f = find_straggler(ranks, 40, 1);
  ASSERT_TRUE(f);
  const auto keep = ranks_to_keep(ranks, f);
  ASSERT_EQ(keep.size(), kRankSamplesRanks);
  EXPECT_EQ(keep[0], 700u);                                    // the straggler
  EXPECT_DOUBLE_EQ(ranks[keep[1]].median_s, 1e-3 + 96 * 1e-6); // the highest: i % 97 == 96
  EXPECT_NEAR(ranks[keep[2]].median_s, 1.046e-3, 1e-9);        // the 500th of 1000 medians
  // Nobody named: the lowest median stands first; equal ranks give one rank, kept once.
  EXPECT_EQ(ranks_to_keep(ranks, std::nullopt)[0], 700u);
  EXPECT_EQ(ranks_to_keep(equal_ranks(1), std::nullopt).size(), 1u);
  EXPECT_EQ(ranks_to_keep(equal_ranks(2), std::nullopt).size(), 2u);
  EXPECT_TRUE(ranks_to_keep({}, std::nullopt).empty());
}

} // namespace
} // namespace cb
