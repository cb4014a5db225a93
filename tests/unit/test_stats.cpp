#include <gtest/gtest.h>

#include <cmath>

#include "core/stats.hpp"

using namespace cb;

TEST(Stats, MedianOddAndEven) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(Stats, PercentileMatchesNumpyLinear) {
  // numpy.percentile([1..10], [5, 95]) = [1.45, 9.55]
  std::vector<double> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_NEAR(percentile(v, 0.05), 1.45, 1e-12);
  EXPECT_NEAR(percentile(v, 0.95), 9.55, 1e-12);
  EXPECT_DOUBLE_EQ(percentile(v, 0.0), 1);
  EXPECT_DOUBLE_EQ(percentile(v, 1.0), 10);
}

TEST(Stats, SampleStddevAndCv) {
  std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9}; // mean 5, sample var 32/7
  EXPECT_NEAR(stddev(v), std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_NEAR(coefficient_of_variation(v), std::sqrt(32.0 / 7.0) / 5.0, 1e-12);
  EXPECT_DOUBLE_EQ(stddev({1.0}), 0.0);
}

TEST(Stats, MedianAbsoluteDeviation) {
  EXPECT_DOUBLE_EQ(median_absolute_deviation({1, 1, 2, 2, 4, 6, 9}), 1);
}

TEST(Stats, SummarizeFillsEveryField) {
  auto s = summarize({1, 2, 3, 4});
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_GT(s.stddev, 0);
  EXPECT_NEAR(s.cv, s.stddev / 2.5, 1e-12);
  EXPECT_LT(s.p05, s.p95);
  EXPECT_DOUBLE_EQ(s.p99, 3.97); // position 0.99 x 3 = 2.97: 3 + 0.97 x (4 - 3)
  EXPECT_DOUBLE_EQ(s.spike, 3.97 / 2.5);
  EXPECT_EQ(summarize({}).count, 0u);
  EXPECT_EQ(summarize({}).spike, 0.0);
}

TEST(Stats, SpikeIsP99OverTheMedianAndOneWithoutASpike) {
  // 99 samples of 1 ms and one of 50 ms: the p99 sits between them, the median does not move.
  std::vector<double> samples(99, 1e-3);
  samples.push_back(50e-3);
  const Stats s = summarize(samples);
  EXPECT_DOUBLE_EQ(s.median, 1e-3);
  EXPECT_NEAR(s.p99, 1e-3 + 0.01 * 49e-3, 1e-12); // position 98.01
  EXPECT_NEAR(s.spike, 1.49, 1e-9);
  EXPECT_DOUBLE_EQ(summarize(std::vector<double>(10, 2e-6)).spike, 1.0);
  EXPECT_EQ(spike_ratio(1.0, 0.0), 0.0);
}

TEST(RoundSignificant, KeepsTheGivenDigitsAndLeavesSpecialValues) {
  EXPECT_DOUBLE_EQ(cb::round_significant(0.00023279786517564527, 6), 0.000232798);
  EXPECT_DOUBLE_EQ(cb::round_significant(123456789.0, 3), 123000000.0);
  EXPECT_DOUBLE_EQ(cb::round_significant(-1.23456, 2), -1.2);
  EXPECT_EQ(cb::round_significant(0.0, 6), 0.0);
  EXPECT_TRUE(std::isinf(cb::round_significant(INFINITY, 6)));
  EXPECT_TRUE(std::isnan(cb::round_significant(NAN, 6)));
}
