#include <gtest/gtest.h>

#include <cmath>

#include "verdicts/run_level_test.hpp"

using namespace cb;

namespace {

std::vector<double> exp_of(const std::vector<double>& logs, double scale = 1.0) {
  std::vector<double> out;
  for (double x : logs)
    out.push_back(scale * std::exp(x));
  return out;
}

} // namespace

// Welch's t-test on the logs against scipy.stats.ttest_ind(equal_var=False):
// a = log [1.00, 1.02, 0.98, 1.01, 0.99], b = log [1.10, 1.12, 1.08, 1.11, 1.09]: t = 9.974,
// df = 7.928, p = 9.22e-06.
TEST(RunLevel, WelchOnLogFiguresMatchesScipy) {
  const std::vector<double> a = {1.00, 1.02, 0.98, 1.01, 0.99};
  const std::vector<double> b = {1.10, 1.12, 1.08, 1.11, 1.09};
  const RunLevelResult r = compare_runs(a, b, {});
  EXPECT_EQ(r.test, RunTest::welch);
  EXPECT_NEAR(r.change, 0.0999, 1e-3); // the ratio of geometric means
  EXPECT_NEAR(r.p_value, 9.22e-6, 0.05e-6);
  // (4.604094 + 0.940965) * SD(log a) * sqrt(2/5): 5.7 %.
  EXPECT_NEAR(r.detectable, 0.057, 0.002);
}

// The detectable change is (t(1 - alpha/2, n-1) + t(power, n-1)) s sqrt(2/n) on the log scale:
// for s = 0.1 (about 10 % run to run), n = 5 a side, alpha 0.01, power 0.8:
// (4.604094 + 0.940965) * 0.1 * sqrt(0.4) = 0.350693 -> exp - 1 = 42.0 %.
TEST(RunLevel, DetectableChangeIsThePowerFormula) {
  std::vector<double> logs = {-0.1581139, -0.0790569, 0.0, 0.0790569, 0.1581139}; // SD 0.125
  for (double& x : logs)
    x *= 0.8; // SD 0.1
  const RunLevelResult r = compare_runs(exp_of(logs), exp_of(logs), {});
  EXPECT_NEAR(r.spread, 0.1, 1e-6);
  EXPECT_NEAR(r.detectable, std::expm1(0.350693), 1e-4);
  EXPECT_NEAR(r.p_value, 1.0, 1e-12);
  // Ten runs a side see smaller changes on the same machine.
  std::vector<double> ten = logs;
  ten.insert(ten.end(), logs.begin(), logs.end());
  EXPECT_LT(compare_runs(exp_of(ten), exp_of(ten), {}).detectable, r.detectable / 1.5);
}

TEST(RunLevel, OneRunASideIsNoTest) {
  const RunLevelResult r = compare_runs({1.0}, {2.0}, {});
  EXPECT_EQ(r.test, RunTest::none);
  EXPECT_EQ(r.why_none, kOneRunASide);
  EXPECT_NEAR(r.change, 1.0, 1e-12);
  const RunLevelResult one_base = compare_runs({1.0}, {2.0, 2.1}, {});
  EXPECT_EQ(one_base.test, RunTest::none);
  EXPECT_NE(one_base.why_none.find("one baseline run"), std::string::npos);
  EXPECT_EQ(compare_paired_runs({1.0}, {1.5}, {}).why_none, kOneRunASide);
}

// One new run against a history: t = (y - mean) / (s sqrt(1 + 1/n)), df n - 1.
TEST(RunLevel, OneCurrentRunIsHeldAgainstTheBaselineSpread) {
  const std::vector<double> history = {1.00, 1.02, 0.98, 1.01, 0.99, 1.00, 1.01, 0.99};
  const RunLevelResult same = compare_runs(history, {1.005}, {});
  EXPECT_EQ(same.test, RunTest::against_baseline_spread);
  EXPECT_GT(same.p_value, 0.5);
  const RunLevelResult slow = compare_runs(history, {1.30}, {});
  EXPECT_LT(slow.p_value, 1e-4);
}

// Drift shared by both builds of a pair cancels in the paired test and not in Welch's.
TEST(RunLevel, PairingRemovesSharedDrift) {
  const std::vector<double> drift = {1.0, 1.4, 0.8, 1.2, 0.9, 1.3};
  std::vector<double> base, cur;
  for (std::size_t i = 0; i < drift.size(); ++i) {
    base.push_back(drift[i] * (1 + 0.005 * (i % 2 ? 1 : -1)));
    cur.push_back(drift[i] * 1.10);
  }
  const RunLevelResult welch = compare_runs(base, cur, {});
  const RunLevelResult paired = compare_paired_runs(base, cur, {});
  EXPECT_EQ(paired.test, RunTest::paired);
  EXPECT_GT(welch.p_value, 0.05);
  EXPECT_LT(paired.p_value, 1e-5);
  EXPECT_LT(paired.detectable, 0.03);
  EXPECT_GT(welch.detectable, 0.5);
  EXPECT_EQ(compare_paired_runs({1, 2}, {1}, {}).test, RunTest::none);
}
