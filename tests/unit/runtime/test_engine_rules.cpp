#include <gtest/gtest.h>

#include "runtime/engine.hpp"

using namespace cb;

TEST(StoppingRule, NeedsMinimumCountAndTimeBeforeConverging) {
  MeasureSettings s;
  s.min_samples = 5;
  s.min_time_s = 0.1;
  s.max_time_s = 2;
  s.target_cv = 0.01;
  const std::vector<double> steady(5, 1.0);
  EXPECT_EQ(stopping_rule({1.0, 1.0}, 1.0, s), StopDecision::keep_going);  // too few
  EXPECT_EQ(stopping_rule(steady, 0.05, s), StopDecision::keep_going);      // too soon
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
