#include <gtest/gtest.h>

#include "verdict_test_data.hpp"
#include "verdicts/change_point.hpp"

using namespace cb;
using namespace cb::testing;

namespace {

std::vector<double> joined(std::vector<std::vector<double>> parts) {
  std::vector<double> out;
  for (const auto& p : parts)
    out.insert(out.end(), p.begin(), p.end());
  return out;
}

} // namespace

TEST(ChangePoint, AStepIsFoundAtTheFirstRunAfterIt) {
  const auto series =
      joined({lognormal_samples(1, 1.0, 0.01, 10), lognormal_samples(2, 1.2, 0.01, 10)});
  const auto found = find_change_points(series);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 10u);
  EXPECT_NEAR(found[0].change, 0.2, 0.02);
  EXPECT_LT(found[0].p_value, 0.01);
}

TEST(ChangePoint, NoiseAloneHasNone) {
  for (std::uint64_t seed = 10; seed < 20; ++seed) {
    EXPECT_TRUE(find_change_points(lognormal_samples(seed, 1.0, 0.05, 30)).empty()) << seed;
  }
}

TEST(ChangePoint, TwoStepsAreBothFoundInOrder) {
  const auto series =
      joined({lognormal_samples(3, 1.0, 0.01, 8), lognormal_samples(4, 1.5, 0.01, 8),
              lognormal_samples(5, 0.9, 0.01, 8)});
  const auto found = find_change_points(series);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].index, 8u);
  EXPECT_EQ(found[1].index, 16u);
  EXPECT_GT(found[0].change, 0.4);
  EXPECT_LT(found[1].change, -0.3);
}

TEST(ChangePoint, AStepBelowTheThresholdOrTooShortIsNotReported) {
  const auto small =
      joined({lognormal_samples(6, 1.0, 0.002, 10), lognormal_samples(7, 1.02, 0.002, 10)});
  EXPECT_TRUE(find_change_points(small).empty());
  ChangePointOptions fine;
  fine.threshold = 0.01;
  EXPECT_EQ(find_change_points(small, fine).size(), 1u);
  EXPECT_TRUE(find_change_points({1.0, 1.0, 2.0}).empty()); // fewer than two runs a side
  EXPECT_EQ(find_change_points({1.0, 1.0, 2.0, 2.0, 2.0}).size(),
            0u); // 2 of the 10 orders split as cleanly: p 0.2
}
