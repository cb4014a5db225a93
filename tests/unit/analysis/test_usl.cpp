#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "analysis/usl.hpp"
#include "core/error.hpp"

using namespace cb;

namespace {

nlohmann::json load_vectors() {
  std::ifstream in(CB_USL_VECTORS);
  return nlohmann::json::parse(in);
}

void expect_relative(double actual, double expected, double tolerance, const std::string& what) {
  EXPECT_LE(std::abs(actual - expected), tolerance * std::abs(expected))
      << what << ": got " << actual << ", expected " << expected << " within " << tolerance * 100
      << " %";
}

std::vector<double> usl_curve(const std::vector<double>& n, double alpha, double beta,
                              double gamma) {
  std::vector<double> x;
  for (double v : n)
    x.push_back(usl_throughput(alpha, beta, gamma, v));
  return x;
}

bool has_warning(const UslFit& fit, const std::string& text) {
  for (const auto& w : fit.warnings) {
    if (w.find(text) != std::string::npos)
      return true;
  }
  return false;
}

} // namespace

// The published fits (R package 'usl'), by every method that has expected values.
TEST(UslVectors, MatchPublishedFitsWithinTheirTolerance) {
  const auto vectors = load_vectors();
  int compared = 0;
  for (const auto& set : vectors["sets"]) {
    const auto n = set["n"].get<std::vector<double>>();
    const auto x = set["x"].get<std::vector<double>>();
    const double tol = set["tolerance_relative"].get<double>();
    for (const char* method_name : {"nls", "linearised"}) {
      if (!set.contains(method_name))
        continue;
      const auto& expected = set[method_name];
      const auto fit = fit_usl(n, x, usl_method_from_name(method_name, "method"));
      const std::string where = set["name"].get<std::string>() + " " + method_name;
      ASSERT_TRUE(fit.ok) << where;
      expect_relative(fit.alpha, expected["alpha"], tol, where + " alpha");
      expect_relative(fit.beta, expected["beta"], tol, where + " beta");
      if (expected.contains("gamma"))
        expect_relative(fit.gamma, expected["gamma"], tol, where + " gamma");
      if (expected.contains("n_peak")) {
        ASSERT_TRUE(fit.n_peak) << where;
        expect_relative(*fit.n_peak, expected["n_peak"], tol, where + " n_peak");
      }
      EXPECT_GT(fit.r2, 0.9) << where;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 3); // synthetic nls, specsdm91 nls and linearised
}

TEST(Usl, ExactDataIsRecoveredByBothMethods) {
  const std::vector<double> n{1, 2, 4, 8, 16, 32, 64};
  const auto x = usl_curve(n, 0.03, 0.0005, 250);
  for (auto method : {UslMethod::nls, UslMethod::linearised}) {
    const auto fit = fit_usl(n, x, method);
    ASSERT_TRUE(fit.ok);
    EXPECT_NEAR(fit.alpha, 0.03, 1e-8);
    EXPECT_NEAR(fit.beta, 0.0005, 1e-10);
    EXPECT_NEAR(fit.gamma, 250, 1e-6);
    EXPECT_NEAR(*fit.n_peak, std::sqrt(0.97 / 0.0005), 1e-4);
    EXPECT_NEAR(*fit.peak_throughput, usl_throughput(0.03, 0.0005, 250, *fit.n_peak), 1e-6);
    EXPECT_NEAR(fit.r2, 1.0, 1e-12);
    EXPECT_TRUE(fit.warnings.empty());
  }
}

// Curves generated from known parameters with 1 % multiplicative noise (fixed seeds).
TEST(Usl, NoisyCurvesFromKnownParameters) {
  const std::vector<double> n{1, 2, 4, 8, 12, 16, 24, 32, 48, 64};
  const double alpha = 0.05, beta = 0.001, gamma = 100;
  for (unsigned seed : {1u, 2u, 3u, 42u}) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 0.01);
    auto x = usl_curve(n, alpha, beta, gamma);
    for (double& v : x)
      v *= 1 + noise(rng);
    const auto fit = fit_usl(n, x, UslMethod::nls);
    ASSERT_TRUE(fit.ok) << "seed " << seed;
    expect_relative(fit.alpha, alpha, 0.15, "alpha, seed " + std::to_string(seed));
    expect_relative(fit.beta, beta, 0.15, "beta, seed " + std::to_string(seed));
    expect_relative(fit.gamma, gamma, 0.03, "gamma, seed " + std::to_string(seed));
    expect_relative(*fit.n_peak, std::sqrt((1 - alpha) / beta), 0.1,
                    "n_peak, seed " + std::to_string(seed));
    EXPECT_GT(fit.r2, 0.99);
    // The linearised fit answers differently but lands near the same curve.
    const auto linear = fit_usl(n, x, UslMethod::linearised);
    ASSERT_TRUE(linear.ok);
    EXPECT_GT(linear.r2, 0.95);
  }
}

TEST(Usl, NlsIsNeverWorseThanTheLinearisedFitOnX) {
  const auto vectors = load_vectors();
  for (const auto& set : vectors["sets"]) {
    const auto n = set["n"].get<std::vector<double>>();
    const auto x = set["x"].get<std::vector<double>>();
    EXPECT_GE(fit_usl(n, x, UslMethod::nls).r2 + 1e-12, fit_usl(n, x, UslMethod::linearised).r2);
  }
}

TEST(Usl, ContentionFreeDataHasNoPeak) {
  // Amdahl-shaped: beta = 0 exactly.
  const std::vector<double> n{1, 2, 4, 8, 16};
  const auto x = usl_curve(n, 0.1, 0.0, 50);
  const auto fit = fit_usl(n, x, UslMethod::nls);
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.alpha, 0.1, 1e-8);
  EXPECT_EQ(fit.beta, 0.0);
  EXPECT_FALSE(fit.n_peak);
  EXPECT_TRUE(has_warning(fit, "no peak: contention-free"));
}

TEST(Usl, LinearScalingHasNoPeakEither) {
  const std::vector<double> n{1, 2, 4, 8};
  const auto fit = fit_usl(n, {5, 10, 20, 40}, UslMethod::nls);
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.alpha, 0, 1e-12);
  EXPECT_EQ(fit.beta, 0);
  EXPECT_NEAR(fit.gamma, 5, 1e-9);
  EXPECT_FALSE(fit.n_peak);
}

TEST(Usl, SuperlinearDataGivesALinearisedBetaBelowZeroAndNoPeak) {
  // C = N / (1 + alpha (N-1) + beta N (N-1)) with alpha = 0.01, beta = -0.01: speedup 15.7 on 8.
  const std::vector<double> n{1, 2, 4, 8};
  std::vector<double> x;
  for (double v : n)
    x.push_back(usl_throughput(0.01, -0.01, 1, v));
  const auto fit = fit_usl(n, x, UslMethod::linearised);
  ASSERT_TRUE(fit.ok);
  EXPECT_NEAR(fit.beta, -0.01, 1e-10);
  EXPECT_FALSE(fit.n_peak);
  EXPECT_TRUE(has_warning(fit, "no peak: beta"));
  // nls keeps beta in [0, 1] and says the bound, not the data, put it at 0.
  const auto bounded = fit_usl(n, x, UslMethod::nls);
  ASSERT_TRUE(bounded.ok);
  EXPECT_EQ(bounded.beta, 0);
  EXPECT_TRUE(has_warning(bounded, "held at their lower bound 0") ||
              has_warning(bounded, "beta held at its lower bound 0"))
      << testing::PrintToString(bounded.warnings);
  EXPECT_TRUE(has_warning(bounded, "no peak: beta is held at 0 by its bound"));
  EXPECT_FALSE(has_warning(bounded, "contention-free"));
}

TEST(Usl, SuperlinearEfficiencyIsABoundNotAFit) {
  // Efficiency above 1 at every count (caches): 1, 2.2, 4.8, 10.4 on 1, 2, 4, 8.
  const std::vector<double> n{1, 2, 4, 8};
  const auto fit = fit_usl(n, {10, 22, 48, 104}, UslMethod::nls);
  ASSERT_TRUE(fit.ok);
  EXPECT_EQ(fit.alpha, 0);
  EXPECT_EQ(fit.beta, 0);
  EXPECT_TRUE(has_warning(fit, "alpha and beta held at their lower bound 0"))
      << testing::PrintToString(fit.warnings);
  EXPECT_TRUE(has_warning(fit, "super-linear"));
}

TEST(Usl, ExactlyLinearDataPushesNoBound) {
  const auto fit = fit_usl({1, 2, 4, 8}, {5, 10, 20, 40}, UslMethod::nls);
  ASSERT_TRUE(fit.ok);
  EXPECT_FALSE(has_warning(fit, "bound")) << testing::PrintToString(fit.warnings);
  EXPECT_TRUE(has_warning(fit, "no peak: contention-free"));
}

TEST(Usl, ThreeCountsForThreeParametersFitExactlyAndSaySo) {
  const std::vector<double> three{1, 2, 4};
  const auto x = usl_curve(three, 0.05, 0.01, 10);
  const auto nls = fit_usl(three, x, UslMethod::nls);
  ASSERT_TRUE(nls.ok);
  EXPECT_TRUE(has_warning(nls, "3 informative GPU counts for 3 parameters"))
      << testing::PrintToString(nls.warnings);
  // The linearised form takes gamma = X(1) and learns nothing from N = 1: 2 counts, 2 parameters.
  const auto linear = fit_usl(three, x, UslMethod::linearised);
  ASSERT_TRUE(linear.ok);
  EXPECT_TRUE(has_warning(linear, "2 informative GPU counts for 2 parameters"));
  // One count more and the fit is tested by a point it did not need.
  const std::vector<double> four{1, 2, 4, 8};
  EXPECT_FALSE(has_warning(fit_usl(four, usl_curve(four, 0.05, 0.01, 10), UslMethod::nls),
                           "informative GPU count"));
  EXPECT_FALSE(has_warning(fit_usl(four, usl_curve(four, 0.05, 0.01, 10), UslMethod::linearised),
                           "informative GPU count"));
}

TEST(Usl, RepeatedCountsAreNotMorePoints) {
  const auto fit = fit_usl({1, 1, 1}, {10, 10.5, 9.8}, UslMethod::nls);
  EXPECT_FALSE(fit.ok);
  EXPECT_TRUE(has_warning(fit, "needs at least 3 different GPU counts")) << fit.warnings[0];
  EXPECT_FALSE(fit_usl({1, 2, 2, 1}, {10, 19, 19.5, 10}, UslMethod::nls).ok);
}

TEST(Usl, AFitWorseThanTheMeanSaysSo) {
  // Gunther's linearised fit is least squares on N/C - 1, not on X: a slowdown at 2 GPUs followed
  // by recovery puts its curve far from the throughputs.
  const std::vector<double> n{1, 2, 4, 8};
  const std::vector<double> x{10, 2, 30, 8};
  const auto fit = fit_usl(n, x, UslMethod::linearised);
  ASSERT_TRUE(fit.ok);
  ASSERT_LT(fit.r2, 0);
  EXPECT_TRUE(has_warning(fit, " < 0: the law describes these points worse than their mean"))
      << testing::PrintToString(fit.warnings);
  // A good fit carries no such warning.
  EXPECT_FALSE(has_warning(fit_usl(n, usl_curve(n, 0.05, 0.01, 10), UslMethod::nls), "< 0:"));
}

TEST(Usl, TooFewPointsGiveAWarningInsteadOfNumbers) {
  const auto fit = fit_usl({1, 2}, {1, 1.9}, UslMethod::nls);
  EXPECT_FALSE(fit.ok);
  EXPECT_EQ(fit.points, 2);
  EXPECT_TRUE(has_warning(fit, "at least 3 points"));
}

TEST(Usl, NonPositiveInputIsRefused) {
  EXPECT_FALSE(fit_usl({1, 2, 4}, {1, 0, 3}, UslMethod::nls).ok);
  EXPECT_FALSE(fit_usl({1, 2, 4}, {1, NAN, 3}, UslMethod::nls).ok);
  EXPECT_FALSE(fit_usl({1, 2, 4}, {1, 2}, UslMethod::nls).ok);
}

TEST(Usl, LinearisedNeedsAOneGpuReference) {
  const std::vector<double> n{2, 4, 8, 16};
  const auto x = usl_curve(n, 0.02, 0.001, 10);
  EXPECT_FALSE(fit_usl(n, x, UslMethod::linearised).ok);
  const auto with_reference = fit_usl(n, x, UslMethod::linearised, 10.0);
  ASSERT_TRUE(with_reference.ok);
  EXPECT_NEAR(with_reference.alpha, 0.02, 1e-9);
  // nls needs no X(1).
  const auto nls = fit_usl(n, x, UslMethod::nls);
  ASSERT_TRUE(nls.ok);
  EXPECT_NEAR(nls.gamma, 10, 1e-6);
}

TEST(Usl, MethodNames) {
  EXPECT_EQ(usl_method_from_name("nls", "--method"), UslMethod::nls);
  EXPECT_EQ(usl_method_from_name("linearised", "--method"), UslMethod::linearised);
  EXPECT_EQ(usl_method_name(UslMethod::linearised), "linearised");
  try {
    usl_method_from_name("cubic", "--method");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--method"), std::string::npos);
  }
}
