#include <gtest/gtest.h>

#include "core/error.hpp"
#include "verdict_test_data.hpp"
#include "verdicts/check_report.hpp"
#include "verdicts/regression_check.hpp"

using namespace cb;
using namespace cb::testing;

namespace {

const CaseKey kKey{"collectives", "all_reduce", {{"bytes", 1048576}}, 2};

ComparedMeasure times(std::vector<double> values) {
  return {kTimeQuantity, Better::lower, std::move(values)};
}

std::vector<double> scaled(std::vector<double> v, double factor) {
  for (double& x : v)
    x *= factor;
  return v;
}

} // namespace

TEST(JudgeCase, TenPercentSlowerWithTwentySamplesIsARegression) {
  const auto base = lognormal_samples(1, 1e-3, 0.01, 20);
  const auto slow = scaled(lognormal_samples(2, 1e-3, 0.01, 20), 1.10);
  const CaseCheck c = judge_case(kKey, times(base), times(slow), {});
  EXPECT_EQ(c.outcome, CaseOutcome::regression);
  EXPECT_NEAR(c.change, 0.10, 0.02);
  EXPECT_LT(c.p_value, 1e-6);
  EXPECT_EQ(c.baseline_count, 20u);
}

TEST(JudgeCase, TheSameDistributionIsUnchanged) {
  const CaseCheck c = judge_case(kKey, times(lognormal_samples(1, 1e-3, 0.01, 20)),
                                 times(lognormal_samples(2, 1e-3, 0.01, 20)), {});
  EXPECT_EQ(c.outcome, CaseOutcome::unchanged);
}

TEST(JudgeCase, FewerThanMinSamplesIsInconclusiveEvenForALargeChange) {
  const CaseCheck c = judge_case(kKey, times({1.0, 1.01, 0.99}), times({1.1, 1.11, 1.09}), {});
  EXPECT_EQ(c.outcome, CaseOutcome::inconclusive);
  EXPECT_NE(c.note.find("--min-samples is 5"), std::string::npos);
  // ... and for no change at all: never a silent pass.
  const CaseCheck same = judge_case(kKey, times({1.0, 1.01, 0.99}), times({1.0, 1.01, 0.99}), {});
  EXPECT_EQ(same.outcome, CaseOutcome::inconclusive);
}

TEST(JudgeCase, ALargeChangeThatIsNotSignificantIsInconclusive) {
  // Spread samples: the medians differ by 11 % but the samples overlap almost entirely.
  const std::vector<double> base = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<double> cur = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5};
  const CaseCheck slower = judge_case(kKey, times(base), times(cur), {});
  EXPECT_NEAR(slower.change, 0.5 / 4.5, 1e-12);
  EXPECT_GT(slower.p_value, 0.5);
  EXPECT_EQ(slower.outcome, CaseOutcome::inconclusive);
  EXPECT_NE(slower.note.find("worse by 11.1 % but not significant"), std::string::npos);
  // Faster by as much, equally unclear: no claim either way, and no failure.
  const CaseCheck faster = judge_case(kKey, times(cur), times(base), {});
  EXPECT_EQ(faster.outcome, CaseOutcome::unchanged);
}

TEST(JudgeCase, SampleCountsThatCannotReachAlphaAreSaidSo) {
  CheckOptions options;
  options.min_samples = 3;
  const CaseCheck c = judge_case(kKey, times({1.0, 1.01, 0.99}), times({1.2, 1.21, 1.19}), options);
  EXPECT_EQ(c.outcome, CaseOutcome::inconclusive);
  EXPECT_NE(c.note.find("cannot reach p below 0.1"), std::string::npos);
}

TEST(JudgeCase, SignificantButSmallerThanTheThresholdIsUnchanged) {
  const auto base = lognormal_samples(5, 1e-3, 0.001, 30);
  const auto cur = scaled(lognormal_samples(6, 1e-3, 0.001, 30), 1.02);
  const CaseCheck c = judge_case(kKey, times(base), times(cur), {});
  EXPECT_LT(c.p_value, 1e-6);
  EXPECT_EQ(c.outcome, CaseOutcome::unchanged);
}

TEST(JudgeCase, FasterIsAnImprovementNeverAFailure) {
  const auto base = lognormal_samples(7, 1e-3, 0.01, 20);
  const auto fast = scaled(lognormal_samples(8, 1e-3, 0.01, 20), 0.8);
  const CaseCheck c = judge_case(kKey, times(base), times(fast), {});
  EXPECT_EQ(c.outcome, CaseOutcome::improvement);
  EXPECT_NEAR(c.change, -0.2, 0.02);
}

TEST(JudgeCase, ForThroughputLowerIsWorse) {
  const ComparedMeasure base{"busbw_gbps", Better::higher, lognormal_samples(9, 100, 0.01, 10)};
  const ComparedMeasure drop{"busbw_gbps", Better::higher,
                             scaled(lognormal_samples(10, 100, 0.01, 10), 0.9)};
  const ComparedMeasure rise{"busbw_gbps", Better::higher,
                             scaled(lognormal_samples(11, 100, 0.01, 10), 1.1)};
  EXPECT_EQ(judge_case(kKey, base, drop, {}).outcome, CaseOutcome::regression);
  EXPECT_EQ(judge_case(kKey, base, rise, {}).outcome, CaseOutcome::improvement);
}

TEST(JudgeCase, ThresholdAndAlphaAreHonoured) {
  const auto base = lognormal_samples(12, 1e-3, 0.01, 20);
  const auto slow = scaled(lognormal_samples(13, 1e-3, 0.01, 20), 1.10);
  CheckOptions loose;
  loose.threshold = 0.15;
  EXPECT_EQ(judge_case(kKey, times(base), times(slow), loose).outcome, CaseOutcome::unchanged);
  CheckOptions strict;
  strict.alpha = 1e-15;
  EXPECT_EQ(judge_case(kKey, times(base), times(slow), strict).outcome, CaseOutcome::inconclusive);
}

TEST(CheckRegressions, VerdictIsRegressionThenInconclusiveThenPass) {
  const auto a = lognormal_samples(20, 1e-3, 0.01, 20);
  const auto b = lognormal_samples(21, 1e-3, 0.01, 20);
  const ResultsFile base =
      results_of({timed_record("all_reduce", 2, a), timed_record("all_reduce", 4, a),
                  timed_record("all_gather", 2, {1, 1.1})});
  const ResultsFile pass =
      results_of({timed_record("all_reduce", 2, b), timed_record("all_reduce", 4, b)});
  const ResultsFile inconclusive =
      results_of({timed_record("all_reduce", 2, b), timed_record("all_gather", 2, {1, 1.2})});
  const ResultsFile regression = results_of(
      {timed_record("all_reduce", 2, scaled(b, 1.2)), timed_record("all_gather", 2, {1, 1.2})});

  const CheckReport r_pass = check_regressions(base, pass, {});
  EXPECT_EQ(r_pass.verdict, CheckVerdict::pass);
  EXPECT_EQ(r_pass.cases.size(), 2u);
  ASSERT_EQ(r_pass.missing_in_current.size(), 1u); // all_gather: listed, not a failure
  EXPECT_EQ(r_pass.missing_in_current[0].key.case_name, "all_gather");
  EXPECT_EQ(check_exit_code(r_pass, false), 0);

  const CheckReport r_inc = check_regressions(base, inconclusive, {});
  EXPECT_EQ(r_inc.verdict, CheckVerdict::inconclusive);
  EXPECT_EQ(check_exit_code(r_inc, false), 1);
  EXPECT_EQ(check_exit_code(r_inc, true), 0);

  const CheckReport r_reg = check_regressions(base, regression, {});
  EXPECT_EQ(r_reg.verdict, CheckVerdict::regression);
  EXPECT_EQ(r_reg.count(CaseOutcome::regression), 1u);
  EXPECT_EQ(check_exit_code(r_reg, true), 1);
}

TEST(CheckRegressions, NothingInCommonGivesNoCases) {
  const CheckReport r = check_regressions(results_of({timed_record("a", 2, {1})}),
                                          results_of({timed_record("b", 2, {1})}), {});
  EXPECT_TRUE(r.cases.empty());
  EXPECT_EQ(r.missing_in_current.size(), 1u);
  EXPECT_EQ(r.missing_in_baseline.size(), 1u);
}

TEST(CheckRegressions, NoSharedFigureIsInconclusive) {
  const CheckReport r = check_regressions(results_of({metric_record("x", 2, {{"gbps", 5}})}),
                                          results_of({metric_record("x", 2, {{"tflops", 5}})}), {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].outcome, CaseOutcome::inconclusive);
  EXPECT_EQ(r.verdict, CheckVerdict::inconclusive);
}

TEST(CheckRegressions, NoisyRecordsAreFlagged) {
  Record noisy = timed_record("x", 2, lognormal_samples(30, 1, 0.01, 10));
  noisy.status = RecordStatus::noisy;
  const CheckReport r =
      check_regressions(results_of({timed_record("x", 2, lognormal_samples(31, 1, 0.01, 10))}),
                        results_of({noisy}), {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_NE(r.cases[0].note.find("noisy in the current run"), std::string::npos);
}

TEST(CheckOptionsValidation, RejectsOutOfRangeValues) {
  CheckOptions o;
  o.threshold = -0.1;
  EXPECT_THROW(validate(o), InputError);
  o = {};
  o.alpha = 0;
  EXPECT_THROW(validate(o), InputError);
  o = {};
  o.alpha = 1.5;
  EXPECT_THROW(validate(o), InputError);
  o = {};
  o.min_samples = 0;
  EXPECT_THROW(validate(o), InputError);
  EXPECT_NO_THROW(validate(CheckOptions{}));
}

TEST(CheckReportOutput, JsonListsEveryOutcomeAndMarkdownNamesTheFigures) {
  const auto a = lognormal_samples(40, 1e-3, 0.01, 20);
  const auto b = lognormal_samples(41, 1e-3, 0.01, 20);
  const ResultsFile base =
      results_of({timed_record("all_reduce", 2, a), timed_record("gone", 2, a)});
  const ResultsFile cur =
      results_of({timed_record("all_reduce", 2, scaled(b, 1.1)), timed_record("new", 2, b)});
  const CheckReport report = check_regressions(base, cur, {});
  CheckContext context{"base.json", "cur.json", {}, false};
  const auto j = check_report_json(report, context);
  EXPECT_EQ(j["verdict"], "regression");
  for (const char* key : {"regressions", "improvements", "inconclusive", "unchanged",
                          "missing_in_baseline", "missing_in_current"}) {
    EXPECT_TRUE(j.contains(key) && j[key].is_array()) << key;
  }
  ASSERT_EQ(j["regressions"].size(), 1u);
  EXPECT_EQ(j["regressions"][0]["case"], "all_reduce");
  EXPECT_EQ(j["regressions"][0]["gpus"], 2);
  EXPECT_NEAR(j["regressions"][0]["change_pct"].get<double>(), 10.0, 2.0);
  EXPECT_EQ(j["missing_in_current"][0]["case"], "gone");
  EXPECT_EQ(j["missing_in_baseline"][0]["case"], "new");

  const std::string text = check_report_markdown(report, context);
  EXPECT_NE(text.find("## Regressions (1)"), std::string::npos);
  EXPECT_NE(text.find("- collectives/all_reduce bytes=1M, 2 GPUs: time "), std::string::npos);
  EXPECT_NE(text.find("## Missing in the current run (1)"), std::string::npos);
  EXPECT_NE(text.find("## Missing in the baseline (1)"), std::string::npos);
  EXPECT_NE(text.find("verdict: FAIL - 1 regression"), std::string::npos);
}
