#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

#include "core/stats.hpp"
#include "verdicts/bootstrap.hpp"
#include "verdicts/resampled_median.hpp"

using namespace cb;

namespace {

std::vector<double> lognormal(std::mt19937_64& rng, double center, double sigma, int n) {
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(center * std::exp(noise(rng)));
  return v;
}

} // namespace

TEST(Bootstrap, RatioIsTheRatioOfMediansAndTheIntervalBracketsIt) {
  const std::vector<double> a = {10, 11, 9, 10.5, 9.5, 10.2, 9.8};
  const std::vector<double> b = {12, 12.5, 11.5, 12.2, 11.8, 12.1, 11.9};
  const RatioInterval r = bootstrap_median_ratio(a, b);
  EXPECT_DOUBLE_EQ(r.ratio, median(b) / median(a));
  EXPECT_LE(r.low, r.ratio);
  EXPECT_GE(r.high, r.ratio);
  EXPECT_GT(r.low, 1.0); // b is clearly larger
}

TEST(Bootstrap, TheFixedSeedMakesItReproducible) {
  std::mt19937_64 rng(7);
  const auto a = lognormal(rng, 1.0, 0.05, 15);
  const auto b = lognormal(rng, 1.1, 0.05, 15);
  const RatioInterval first = bootstrap_median_ratio(a, b);
  const RatioInterval second = bootstrap_median_ratio(a, b);
  EXPECT_EQ(first.low, second.low);
  EXPECT_EQ(first.high, second.high);
  BootstrapOptions other_seed;
  other_seed.seed = 12345;
  const RatioInterval third = bootstrap_median_ratio(a, b, other_seed);
  EXPECT_NE(first.low, third.low);
}

TEST(Bootstrap, ConstantSamplesGiveAPointInterval) {
  const RatioInterval r = bootstrap_median_ratio({2, 2, 2, 2}, {3, 3, 3});
  EXPECT_DOUBLE_EQ(r.ratio, 1.5);
  EXPECT_DOUBLE_EQ(r.low, 1.5);
  EXPECT_DOUBLE_EQ(r.high, 1.5);
}

TEST(Bootstrap, WiderConfidenceGivesAWiderInterval) {
  std::mt19937_64 rng(3);
  const auto a = lognormal(rng, 1.0, 0.1, 25);
  const auto b = lognormal(rng, 1.0, 0.1, 25);
  BootstrapOptions narrow, wide;
  narrow.confidence = 0.5;
  wide.confidence = 0.99;
  const auto n = bootstrap_median_ratio(a, b, narrow);
  const auto w = bootstrap_median_ratio(a, b, wide);
  EXPECT_LT(w.low, n.low);
  EXPECT_GT(w.high, n.high);
}

TEST(Bootstrap, CoversTheTrueRatioAboutNinetyFivePercentOfTheTime) {
  // 200 independent experiments with a true ratio of 1.2: a 95 % interval should miss it in about
  // 10; percentile bootstrap intervals of medians run a little narrow at n = 30, so allow 80-99 %.
  std::mt19937_64 rng(2024);
  int covered = 0;
  const int trials = 200;
  BootstrapOptions options;
  options.resamples = 500;
  for (int t = 0; t < trials; ++t) {
    const auto a = lognormal(rng, 1.0, 0.1, 30);
    const auto b = lognormal(rng, 1.2, 0.1, 30);
    options.seed = static_cast<std::uint64_t>(t);
    const auto r = bootstrap_median_ratio(a, b, options);
    if (r.low <= 1.2 && 1.2 <= r.high)
      ++covered;
  }
  EXPECT_GE(covered, 160);
  EXPECT_LE(covered, 198);
}

TEST(Bootstrap, RejectsWhatHasNoRatio) {
  EXPECT_THROW(bootstrap_median_ratio({}, {1.0}), std::invalid_argument);
  EXPECT_THROW(bootstrap_median_ratio({1.0}, {}), std::invalid_argument);
  EXPECT_THROW(bootstrap_median_ratio({0, 0, 0}, {1.0}), std::invalid_argument);
  BootstrapOptions bad;
  bad.confidence = 1.0;
  EXPECT_THROW(bootstrap_median_ratio({1.0}, {1.0}, bad), std::invalid_argument);
  bad = {};
  bad.resamples = 0;
  EXPECT_THROW(bootstrap_median_ratio({1.0}, {1.0}, bad), std::invalid_argument);
}

namespace {

// The exact distribution of the median of n values drawn with replacement from `values`, by
// enumerating every one of the n^n draws.
std::map<double, double> exact_resample_medians(const std::vector<double>& values) {
  const std::size_t n = values.size();
  std::size_t draws = 1;
  for (std::size_t i = 0; i < n; ++i)
    draws *= n;
  std::map<double, double> probability;
  std::vector<double> drawn(n);
  for (std::size_t code = 0; code < draws; ++code) {
    std::size_t c = code;
    for (std::size_t i = 0; i < n; ++i, c /= n)
      drawn[i] = values[c % n];
    probability[median(drawn)] += 1.0 / static_cast<double>(draws);
  }
  return probability;
}

} // namespace

// The order-statistic draw has the distribution of drawing the n values and taking their median:
// each possible median's frequency over 200,000 draws within 0.5 percentage points of its exact
// probability (the binomial error of such a frequency is at most 0.11 points), for odd and even n.
TEST(Bootstrap, AResampledMedianHasTheDistributionOfDrawingTheValues) {
  for (const std::vector<double>& values :
       {std::vector<double>{3, 1, 4, 1.5, 9}, std::vector<double>{2, 7, 1, 8},
        std::vector<double>{5}, std::vector<double>{6, 2}, std::vector<double>{1, 2, 3, 4, 5, 6}}) {
    const auto exact = exact_resample_medians(values);
    const ResampledMedian resampled(values);
    std::mt19937_64 rng(11);
    std::map<double, double> seen;
    const int draws = 200000;
    for (int i = 0; i < draws; ++i)
      seen[resampled.draw(rng)] += 1.0 / draws;
    for (const auto& [value, frequency] : seen)
      EXPECT_TRUE(exact.count(value)) << value << " is no resample's median";
    for (const auto& [value, probability] : exact)
      EXPECT_NEAR(seen[value], probability, 0.005)
          << "median " << value << " of n=" << values.size();
  }
}
