#include <gtest/gtest.h>

#include <cmath>

#include "analysis/least_squares.hpp"

using namespace cb;

TEST(SolveLinearSystem, SolvesThreeByThree) {
  // x = 2, y = 3, z = -1
  auto x = solve_linear_system({{2, 1, -1}, {-3, -1, 2}, {-2, 1, 2}}, {8, -11, -3});
  ASSERT_TRUE(x);
  EXPECT_NEAR((*x)[0], 2, 1e-12);
  EXPECT_NEAR((*x)[1], 3, 1e-12);
  EXPECT_NEAR((*x)[2], -1, 1e-12);
}

TEST(SolveLinearSystem, NeedsPivoting) {
  auto x = solve_linear_system({{0, 1}, {1, 0}}, {2, 3});
  ASSERT_TRUE(x);
  EXPECT_DOUBLE_EQ((*x)[0], 3);
  EXPECT_DOUBLE_EQ((*x)[1], 2);
}

TEST(SolveLinearSystem, RejectsSingular) {
  EXPECT_FALSE(solve_linear_system({{1, 2}, {2, 4}}, {1, 2}));
  EXPECT_FALSE(solve_linear_system({{0, 0}, {0, 0}}, {1, 2}));
}

TEST(LinearLeastSquares, RecoversLineWithIntercept) {
  std::vector<double> ones, x, y;
  for (int i = 0; i < 10; ++i) {
    ones.push_back(1);
    x.push_back(i);
    y.push_back(2 + 3 * i);
  }
  auto coef = linear_least_squares({ones, x}, y);
  ASSERT_TRUE(coef);
  EXPECT_NEAR((*coef)[0], 2, 1e-10);
  EXPECT_NEAR((*coef)[1], 3, 1e-10);
}

TEST(LinearLeastSquares, BestFitOfInconsistentData) {
  // y = c x through (1,1), (2,3): c = (1 + 6) / (1 + 4) = 1.4
  auto coef = linear_least_squares({{1, 2}}, {1, 3});
  ASSERT_TRUE(coef);
  EXPECT_NEAR((*coef)[0], 1.4, 1e-12);
}

TEST(LinearLeastSquares, WeightsPullTowardsHeavyPoints) {
  // Weight 1e6 on the first point: c -> 1.
  auto coef = linear_least_squares({{1, 2}}, {1, 3}, {1e6, 1});
  ASSERT_TRUE(coef);
  EXPECT_NEAR((*coef)[0], 1.0, 1e-5);
}

TEST(LinearLeastSquares, RejectsDependentColumns) {
  EXPECT_FALSE(linear_least_squares({{1, 2, 3}, {2, 4, 6}}, {1, 2, 3}));
  EXPECT_FALSE(linear_least_squares({{1, 2}, {1, 1}, {0, 1}}, {1, 2})); // fewer points than columns
}

TEST(NonnegativeLeastSquares, KeepsAFeasibleUnconstrainedFit) {
  auto fit = nonnegative_least_squares({{1, 1, 1}, {1, 2, 3}}, {3, 5, 7});
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->coef[0], 1, 1e-10);
  EXPECT_NEAR(fit->coef[1], 2, 1e-10);
  EXPECT_FALSE(fit->held_at_zero[0]);
  EXPECT_FALSE(fit->held_at_zero[1]);
}

TEST(NonnegativeLeastSquares, HoldsANegativeInterceptAtZero) {
  // y = -1 + 2x unconstrained; with the intercept held at 0 the slope is the fit through the
  // origin.
  const std::vector<double> x{1, 2, 3}, y{1, 3, 5};
  auto fit = nonnegative_least_squares({{1, 1, 1}, x}, y);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->coef[0], 0);
  EXPECT_TRUE(fit->held_at_zero[0]);
  EXPECT_NEAR(fit->coef[1], (1 + 6 + 15) / 14.0, 1e-12);
}

TEST(RSquared, PerfectAndKnownValues) {
  EXPECT_DOUBLE_EQ(r_squared({1, 2, 3}, {1, 2, 3}), 1.0);
  // mean 2, SS_tot = 2, SS_res = 0.25 + 0 + 0.25 = 0.5 -> 0.75
  EXPECT_DOUBLE_EQ(r_squared({1, 2, 3}, {1.5, 2, 2.5}), 0.75);
  EXPECT_DOUBLE_EQ(r_squared({4, 4}, {4, 4}), 1.0);
  EXPECT_DOUBLE_EQ(r_squared({4, 4}, {3, 5}), 0.0);
}

TEST(RSquared, WeightedAboutTheWeightedMean) {
  // Weights 1, 1, 0: only the first two points count; mean 1.5, SS_tot 0.5, SS_res 0.5^2.
  EXPECT_DOUBLE_EQ(r_squared({1, 2, 100}, {1.5, 2, 0}, {1, 1, 0}), 1 - 0.25 / 0.5);
  EXPECT_DOUBLE_EQ(r_squared({1, 2, 3}, {1.5, 2, 2.5}, {1, 1, 1}), 0.75);
}

namespace {

double exponential(const std::vector<double>& p, double x, std::vector<double>& gradient) {
  const double e = std::exp(p[1] * x);
  gradient[0] = e;
  gradient[1] = p[0] * x * e;
  return p[0] * e;
}

} // namespace

TEST(LevenbergMarquardt, FitsANonLinearModel) {
  std::vector<double> x, y;
  for (int i = 0; i <= 10; ++i) {
    x.push_back(i * 0.3);
    y.push_back(2.5 * std::exp(-0.7 * i * 0.3));
  }
  const double inf = INFINITY;
  auto result = levenberg_marquardt(exponential, x, y, {1, 0}, {-inf, -inf}, {inf, inf});
  EXPECT_TRUE(result.converged);
  EXPECT_NEAR(result.params[0], 2.5, 1e-8);
  EXPECT_NEAR(result.params[1], -0.7, 1e-8);
  EXPECT_LT(result.sum_of_squares, 1e-16);
}

TEST(LevenbergMarquardt, StopsOnABoundAndSaysSo) {
  std::vector<double> x, y;
  for (int i = 0; i <= 10; ++i) {
    x.push_back(i * 0.3);
    y.push_back(2.5 * std::exp(-0.7 * i * 0.3));
  }
  const double inf = INFINITY;
  // The rate may not fall below -0.5: the best bounded fit holds it there and refits the scale.
  auto result = levenberg_marquardt(exponential, x, y, {1, 0}, {-inf, -0.5}, {inf, inf});
  EXPECT_TRUE(result.converged);
  EXPECT_DOUBLE_EQ(result.params[1], -0.5);
  EXPECT_TRUE(result.at_bound[1]);
  EXPECT_FALSE(result.at_bound[0]);
  // With b fixed the best a is sum(y e) / sum(e^2).
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = std::exp(-0.5 * x[i]);
    num += y[i] * e;
    den += e * e;
  }
  EXPECT_NEAR(result.params[0], num / den, 1e-8);
}

TEST(LevenbergMarquardt, ClampsAStartOutsideTheBox) {
  auto result = levenberg_marquardt(exponential, {0, 1, 2}, {1, 1, 1}, {5, 3}, {0, -1}, {2, 1});
  EXPECT_LE(result.params[0], 2);
  EXPECT_LE(result.params[1], 1);
  EXPECT_NEAR(result.params[0], 1, 1e-6);
  EXPECT_NEAR(result.params[1], 0, 1e-6);
}
