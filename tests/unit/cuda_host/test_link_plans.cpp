#include <gtest/gtest.h>

#include <algorithm>

#include "cuda/p2p_plan.hpp"

namespace cb::cuda {
namespace {

TEST(LinkPlans, UnidirectionalPairsAreEveryOrderedPair) {
  const auto pairs = p2p_pairs(4, false);
  EXPECT_EQ(pairs.size(), 12u); // n (n - 1)
  for (const auto& p : pairs)
    EXPECT_NE(p.src, p.dst);
  EXPECT_EQ(pairs.front(), (DevicePair{0, 1}));
  EXPECT_EQ(pairs.back(), (DevicePair{3, 2}));
  EXPECT_NE(std::find(pairs.begin(), pairs.end(), DevicePair{2, 0}), pairs.end());
}

TEST(LinkPlans, BidirectionalPairsAreEachUnorderedPairOnce) {
  const auto pairs = p2p_pairs(4, true);
  EXPECT_EQ(pairs.size(), 6u); // n (n - 1) / 2
  for (const auto& p : pairs)
    EXPECT_LT(p.src, p.dst);
  EXPECT_TRUE(p2p_pairs(1, true).empty());
  EXPECT_TRUE(p2p_pairs(1, false).empty());
  EXPECT_TRUE(p2p_pairs(0, false).empty());
}

TEST(LinkPlans, MatrixRowsAreSourcesWithNullWhereNotMeasured) {
  std::map<std::pair<int, int>, double> values{{{0, 1}, 10.0}, {{1, 0}, 20.0}, {{2, 0}, 30.0}};
  const auto m = link_matrix_json(3, values, false);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_TRUE(m[0][0].is_null());
  EXPECT_EQ(m[0][1], 10.0);
  EXPECT_EQ(m[1][0], 20.0);
  EXPECT_EQ(m[2][0], 30.0);
  EXPECT_TRUE(m[0][2].is_null()); // not measured (e.g. no peer access)
  EXPECT_TRUE(m[1][2].is_null());
}

TEST(LinkPlans, BidirectionalMatrixIsSymmetric) {
  std::map<std::pair<int, int>, double> values{{{0, 1}, 40.0}};
  const auto m = link_matrix_json(2, values, true);
  EXPECT_EQ(m[0][1], 40.0);
  EXPECT_EQ(m[1][0], 40.0);
  EXPECT_TRUE(m[1][1].is_null());
}

TEST(LinkPlans, HeldScheduleQueuesEverythingBeforeTheRelease) {
  const auto steps = held_copy_schedule(2, 1, 3);
  // Per stream: spin, 1 warm-up, start, 3 timed, stop = 7 steps; then one release.
  ASSERT_EQ(steps.size(), 15u);
  EXPECT_EQ(steps.back().kind, StepKind::release);
  EXPECT_EQ(std::count_if(steps.begin(), steps.end(),
                          [](const ScheduleStep& s) { return s.kind == StepKind::release; }),
            1);
  for (int stream = 0; stream < 2; ++stream) {
    std::vector<ScheduleStep> mine;
    for (const auto& s : steps) {
      if (s.stream == stream)
        mine.push_back(s);
    }
    ASSERT_EQ(mine.size(), 7u);
    EXPECT_EQ(mine[0].kind, StepKind::spin);                           // held first
    EXPECT_EQ(mine[1], (ScheduleStep{StepKind::copy, stream, false})); // warm-up, untimed
    EXPECT_EQ(mine[2].kind, StepKind::record_start);
    for (int i = 3; i < 6; ++i)
      EXPECT_EQ(mine[i], (ScheduleStep{StepKind::copy, stream, true}));
    EXPECT_EQ(mine[6].kind, StepKind::record_stop);
  }
}

} // namespace
} // namespace cb::cuda
