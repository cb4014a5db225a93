#include <gtest/gtest.h>

#include <random>

#include "analysis/amdahl.hpp"

using namespace cb;

TEST(Amdahl, SpeedupFormula) {
  EXPECT_DOUBLE_EQ(amdahl_speedup(0.0, 8), 8);
  EXPECT_DOUBLE_EQ(amdahl_speedup(1.0, 8), 1);
  EXPECT_DOUBLE_EQ(amdahl_speedup(0.1, 10), 1 / (0.1 + 0.9 / 10));
}

TEST(Amdahl, RecoversTheSerialFraction) {
  const std::vector<double> n{1, 2, 4, 8, 16, 32};
  std::vector<double> s;
  for (double v : n)
    s.push_back(amdahl_speedup(0.05, v));
  const auto fit = fit_amdahl(n, s);
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.serial_fraction, 0.05, 1e-10);
  EXPECT_NEAR(*fit.max_speedup, 20, 1e-7);
  EXPECT_NEAR(fit.r2, 1, 1e-12);
  EXPECT_TRUE(fit.warnings.empty());
}

TEST(Amdahl, NoisySpeedups) {
  const std::vector<double> n{1, 2, 4, 8, 16, 32, 64};
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<double> s;
  for (double v : n)
    s.push_back(amdahl_speedup(0.02, v) * (1 + noise(rng)));
  const auto fit = fit_amdahl(n, s);
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.serial_fraction, 0.02, 0.003);
  EXPECT_GT(fit.r2, 0.99);
}

TEST(Amdahl, LinearSpeedupHasNoSerialPart) {
  const auto fit = fit_amdahl({1, 2, 4}, {1, 2, 4});
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.serial_fraction, 0, 1e-12);
  EXPECT_FALSE(fit.max_speedup);
  EXPECT_TRUE(fit.warnings.empty());
}

TEST(Amdahl, SuperlinearSpeedupIsHeldAtZeroWithAWarning) {
  const auto fit = fit_amdahl({1, 2, 4}, {1, 2.3, 5});
  ASSERT_TRUE(fit.ok);
  EXPECT_EQ(fit.serial_fraction, 0);
  ASSERT_EQ(fit.warnings.size(), 1u);
  EXPECT_NE(fit.warnings[0].find("superlinear"), std::string::npos);
}

TEST(Amdahl, NoSpeedupIsAllSerial) {
  const auto fit = fit_amdahl({1, 2, 4}, {1, 1, 1});
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.serial_fraction, 1, 1e-12);
  EXPECT_NEAR(*fit.max_speedup, 1, 1e-12);
}

TEST(Amdahl, RefusesTooFewOrBadPoints) {
  EXPECT_FALSE(fit_amdahl({1, 2}, {1, 2}).ok);
  EXPECT_FALSE(fit_amdahl({1, 2, 4}, {1, -2, 3}).ok);
  EXPECT_FALSE(fit_amdahl({1, 2, 4}, {1, 2}).ok);
}

TEST(Amdahl, ASlowdownIsHeldAtAllSerialWithWarnings) {
  // Slower on more GPUs: the best Amdahl can do is S = 1, worse than the points' mean.
  const auto fit = fit_amdahl({1, 2, 4}, {1, 0.5, 0.3});
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.serial_fraction, 1, 1e-12);
  ASSERT_LT(fit.r2, 0);
  ASSERT_EQ(fit.warnings.size(), 2u) << testing::PrintToString(fit.warnings);
  EXPECT_NE(fit.warnings[0].find("the serial fraction is held at 1"), std::string::npos);
  EXPECT_NE(fit.warnings[1].find(" < 0: the law describes these points worse than their mean"),
            std::string::npos);
}

TEST(Amdahl, RepeatedCountsAreNotMorePoints) {
  const auto fit = fit_amdahl({1, 2, 2}, {1, 1.8, 1.9});
  EXPECT_FALSE(fit.ok);
  ASSERT_FALSE(fit.warnings.empty());
  EXPECT_NE(fit.warnings[0].find("needs at least 3 different GPU counts"), std::string::npos);
}
