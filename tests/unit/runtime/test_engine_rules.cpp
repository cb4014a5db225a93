#include <gtest/gtest.h>

#include "core/stats.hpp"
#include "runtime/engine.hpp"

using namespace cb;

TEST(StoppingRule, NeedsMinimumCountAndTimeBeforeConverging) {
  MeasureSettings s;
  s.min_samples = 5;
  s.min_time_s = 0.1;
  s.max_time_s = 2;
  s.target_cv = 0.01;
  const std::vector<double> steady(5, 1.0);
  EXPECT_EQ(stopping_rule({1.0, 1.0}, 1.0, s), StopDecision::keep_going); // too few
  EXPECT_EQ(stopping_rule(steady, 0.05, s), StopDecision::keep_going);    // too soon
  EXPECT_EQ(stopping_rule(steady, 0.2, s), StopDecision::converged);
}

TEST(StoppingRule, KeepsGoingWhileNoisyThenCaps) {
  MeasureSettings s;
  s.min_samples = 3;
  s.min_time_s = 0;
  s.max_time_s = 1;
  s.target_cv = 0.01;
  const std::vector<double> noisy{1.0, 1.5, 0.7, 1.2};
  EXPECT_EQ(stopping_rule(noisy, 0.5, s), StopDecision::keep_going);
  EXPECT_EQ(stopping_rule(noisy, 1.0, s), StopDecision::capped);
  s.max_samples = 4;
  EXPECT_EQ(stopping_rule(noisy, 0.1, s), StopDecision::capped);
}

TEST(StoppingRule, AFixedWindowStopsWhenItEndsWhateverTheSpread) {
  MeasureSettings s;
  s.min_samples = 5;
  s.min_time_s = 0.1;
  s.max_time_s = 0.2;
  s.target_cv = 0.02;
  s.stop_early = false;
  const std::vector<double> steady(5, 1.0);
  const std::vector<double> noisy{1.0, 1.5, 0.7, 1.2, 0.9};
  // Within the window nothing stops it, not even a spread within the target.
  EXPECT_EQ(stopping_rule(steady, 0.05, s), StopDecision::keep_going);
  EXPECT_EQ(stopping_rule({1.0, 1.0, 1.0}, 0.15, s), StopDecision::keep_going); // too few
  // At its end: converged when the spread is within the target, else noisy at once.
  EXPECT_EQ(stopping_rule(steady, 0.1, s), StopDecision::converged);
  EXPECT_EQ(stopping_rule(noisy, 0.1, s), StopDecision::capped);
  s.stop_early = true; // the same noisy samples would keep going to the cap
  EXPECT_EQ(stopping_rule(noisy, 0.1, s), StopDecision::keep_going);
}

TEST(StoppingRule, ConvergedWinsAtTheCapWhenTheTargetIsMet) {
  MeasureSettings s;
  s.min_samples = 3;
  s.min_time_s = 0;
  s.max_time_s = 1;
  EXPECT_EQ(stopping_rule({2.0, 2.0, 2.0}, 5.0, s), StopDecision::converged);
}

TEST(BatchRule, SmallestPowerOfTwoReachingTheTarget) {
  MeasureSettings s;
  s.batch_time_s = 0.002;
  s.max_batch = 1 << 20;
  EXPECT_EQ(batch_for(0.01, s), 1);
  EXPECT_EQ(batch_for(0.002, s), 1);
  EXPECT_EQ(batch_for(0.001, s), 2);
  EXPECT_EQ(batch_for(0.0003, s), 8);
  EXPECT_EQ(batch_for(1e-6, s), 2048);
  EXPECT_EQ(batch_for(0.0, s), 1 << 20);
}

TEST(LatencySettings, SamplesAverageTenMillisecondsWhereTheCapLeavesRoom) {
  MeasureSettings quick;
  quick.batch_time_s = 0.001;
  quick.max_time_s = 0.2;
  quick.min_samples = 5;
  EXPECT_DOUBLE_EQ(latency_settings(quick).batch_time_s, kLatencyBatchS); // 0.2 / 20 = 10 ms
  // A tight cap: 4 x min_samples samples must still fit, 0.05 / 20 = 2.5 ms.
  MeasureSettings tight = quick;
  tight.max_time_s = 0.05;
  EXPECT_DOUBLE_EQ(latency_settings(tight).batch_time_s, 0.0025);
  // Never shorter than the run's own batch time; the rest of the settings unchanged.
  MeasureSettings slow = quick;
  slow.batch_time_s = 0.05;
  EXPECT_DOUBLE_EQ(latency_settings(slow).batch_time_s, 0.05);
  EXPECT_DOUBLE_EQ(latency_settings(quick).max_time_s, 0.2);
  EXPECT_EQ(latency_settings(quick).min_samples, 5);
  // More operations per sample: a 15 us round trip gets 1,024 of them instead of 128.
  EXPECT_EQ(batch_for(15e-6, quick), 128);
  EXPECT_EQ(batch_for(15e-6, latency_settings(quick)), 1024);
}

TEST(StoppingRule, OnePreemptedBatchDoesNotHoldSamplingOpen) {
  MeasureSettings s;
  s.min_samples = 5;
  s.min_time_s = 0;
  s.max_time_s = 10;
  s.target_cv = 0.01;
  std::vector<double> samples{1.0, 1.001, 0.999, 1.0, 50.0, 1.0, 1.002};
  EXPECT_GT(coefficient_of_variation(samples), 1.0);
  EXPECT_LT(robust_relative_spread(samples), 0.01);
  EXPECT_EQ(stopping_rule(samples, 0.5, s), StopDecision::converged);
}

TEST(RobustSpread, MatchesTheStandardDeviationOfNormalSamples) {
  // Evenly spaced quantiles of N(100, 1): MAD x 1.4826 ~ 1.
  std::vector<double> samples;
  const double z[] = {-1.645, -1.036, -0.674, -0.385, -0.126, 0.126, 0.385, 0.674, 1.036, 1.645};
  for (double v : z)
    samples.push_back(100 + v);
  EXPECT_NEAR(robust_relative_spread(samples), 0.01, 0.002);
  EXPECT_EQ(robust_relative_spread({5.0}), 0.0);
}

namespace {
// Samples spread evenly over 1.0 .. 1.2 in a scrambled order (a fixed linear congruential
// sequence): a spread of ~10 %, far above a 1 % target, that stops changing once enough are in.
std::vector<double> stably_noisy(int n) {
  std::vector<double> out;
  unsigned state = 12345;
  for (int i = 0; i < n; ++i) {
    state = state * 1103515245u + 12345u;
    out.push_back(1.0 + 0.2 * ((state >> 8) % 1000) / 1000.0);
  }
  return out;
}
} // namespace

TEST(SettleRule, StablyNoisySamplesSettleAtACheckAfterTheWindow) {
  MeasureSettings s;
  s.min_samples = 5;
  s.min_time_s = 0;
  s.max_time_s = 100;
  s.target_cv = 0.01;
  // Not before the window is full, nor while the spreads of short prefixes still swing (at 80
  // samples the window starts at 17), and only at a check (every 16 samples).
  EXPECT_FALSE(spread_settled(stably_noisy(64), s));
  EXPECT_FALSE(spread_settled(stably_noisy(80), s));
  EXPECT_TRUE(spread_settled(stably_noisy(160), s));
  EXPECT_FALSE(spread_settled(stably_noisy(161), s));
  EXPECT_EQ(stopping_rule(stably_noisy(160), 1.0, s), StopDecision::settled);
  EXPECT_EQ(stopping_rule(stably_noisy(159), 1.0, s), StopDecision::keep_going);
  s.settle = false;
  EXPECT_EQ(stopping_rule(stably_noisy(160), 1.0, s), StopDecision::keep_going);
}

TEST(SettleRule, ASpreadStillChangingDoesNotSettle) {
  MeasureSettings s;
  s.min_time_s = 0;
  s.max_time_s = 100;
  // Quiet at first, then ever wider swings: the spread keeps growing over the window.
  std::vector<double> samples;
  for (int i = 0; i < 80; ++i)
    samples.push_back(1.0 + (i % 2 == 0 ? 1 : -1) * 0.002 * i);
  EXPECT_FALSE(spread_settled(samples, s));
  EXPECT_EQ(stopping_rule(samples, 1.0, s), StopDecision::keep_going);
}

TEST(SettleRule, ConvergedStillWinsOverSettled) {
  MeasureSettings s;
  s.min_time_s = 0;
  const std::vector<double> steady(80, 1.0);
  EXPECT_EQ(stopping_rule(steady, 1.0, s), StopDecision::converged);
}
