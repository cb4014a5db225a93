#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "verdict_test_data.hpp"
#include "verdicts/check_report.hpp"
#include "verdicts/regression_check.hpp"

using namespace cb;
using namespace cb::testing;

namespace {

const CaseKey kKey{"collectives", "all_reduce", {{"bytes", 1048576}}, 2};

// Run figures around `center` with a run-to-run spread of `sigma` (log scale).
std::vector<double> runs(std::uint64_t seed, double center, double sigma, int count) {
  return lognormal_samples(seed, center, sigma, count);
}

CaseCheck judge(std::vector<double> base, std::vector<double> cur, CheckOptions o = {}) {
  return judge_case(kKey, kTimeQuantity, Better::lower, std::move(base), std::move(cur), o);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// One run of a file: each record's samples drift together by `run_factor`, as a machine state
// shared by a run does.
RunFigures run_file(const std::string& name, double run_factor, std::uint64_t seed,
                    std::vector<std::pair<std::string, double>> cases) {
  std::vector<Record> records;
  for (const auto& [case_name, seconds] : cases) {
    records.push_back(
        timed_record(case_name, 2, lognormal_samples(seed++, seconds * run_factor, 0.01, 20)));
  }
  return summarize_run(results_of(std::move(records)), name);
}

RunSide side_of(std::uint64_t seed, int count, double sigma, double slowdown_of_all_reduce) {
  RunSide side;
  const auto drift = lognormal_samples(seed, 1.0, sigma, count);
  for (int i = 0; i < count; ++i) {
    side.runs.push_back(
        run_file("run" + std::to_string(i) + ".json", drift[i], seed * 100 + i,
                 {{"all_reduce", 1e-3 * slowdown_of_all_reduce}, {"all_gather", 2e-3}}));
  }
  return side;
}

} // namespace

TEST(JudgeCase, OneRunASideIsInconclusiveNeverAFailure) {
  const CaseCheck c = judge({1.0}, {1.5});
  EXPECT_EQ(c.outcome, CaseOutcome::inconclusive);
  EXPECT_EQ(c.note, kOneRunASide);
  EXPECT_NEAR(c.worse_by, 0.5, 1e-12);
  EXPECT_EQ(c.test.test, RunTest::none);
}

TEST(JudgeCase, ASlowdownBeyondTheRunToRunSpreadIsARegression) {
  const CaseCheck c = judge(runs(1, 1.0, 0.01, 5), runs(2, 1.2, 0.01, 5));
  EXPECT_EQ(c.outcome, CaseOutcome::regression) << c.note;
  EXPECT_NEAR(c.worse_by, 0.2, 0.03);
  EXPECT_LT(c.test.p_value, 1e-4);
  EXPECT_LT(c.test.detectable, 0.05);
  EXPECT_EQ(c.test.baseline_runs, 5u);
}

TEST(JudgeCase, RunsOfTheSameBuildAreUnchanged) {
  const CaseCheck c = judge(runs(3, 1.0, 0.005, 6), runs(4, 1.0, 0.005, 6));
  EXPECT_EQ(c.outcome, CaseOutcome::unchanged) << c.note;
}

TEST(JudgeCase, ADetectableChangeAboveTheThresholdIsInconclusiveSaidPlainly) {
  // 10 % run to run with 5 runs a side: only changes above about 40 % show at alpha 0.01.
  const CaseCheck c = judge(runs(5, 1.0, 0.10, 5), runs(6, 1.03, 0.10, 5));
  EXPECT_EQ(c.outcome, CaseOutcome::inconclusive);
  EXPECT_GT(c.test.detectable, 0.2);
  EXPECT_TRUE(has(c.note, "this runner can only detect changes above")) << c.note;
  EXPECT_TRUE(has(c.note, "more than --threshold 5.0 %: neither a pass nor a failure")) << c.note;
}

TEST(JudgeCase, AChangeLargerThanTheDetectableOneStillFails) {
  // Detectable about 20 %, above the 5 % threshold; a 2x slowdown is seen all the same.
  const CaseCheck c = judge(runs(7, 1.0, 0.05, 5), runs(8, 2.0, 0.05, 5));
  EXPECT_GT(c.test.detectable, 0.05);
  EXPECT_EQ(c.outcome, CaseOutcome::regression) << c.note;
}

TEST(JudgeCase, WorseButNotSignificantIsInconclusive) {
  // A quiet baseline (small detectable change) and a current side all over the place.
  const CaseCheck c = judge(runs(9, 1.0, 0.005, 8), {1.0, 1.5, 0.9, 1.3, 0.85, 1.4});
  EXPECT_EQ(c.outcome, CaseOutcome::inconclusive);
  EXPECT_TRUE(has(c.note, "but not significant")) << c.note;
}

TEST(JudgeCase, FasterIsAnImprovementAndThroughputDownIsWorse) {
  EXPECT_EQ(judge(runs(10, 1.0, 0.01, 5), runs(11, 0.7, 0.01, 5)).outcome,
            CaseOutcome::improvement);
  const CaseCheck drop = judge_case(kKey, "busbw_gbps", Better::higher, runs(12, 100, 0.01, 5),
                                    runs(13, 80, 0.01, 5), {});
  EXPECT_EQ(drop.outcome, CaseOutcome::regression);
  EXPECT_NEAR(drop.worse_by, 0.25, 0.03); // 100 -> 80 GB/s: 1.25x the time
  EXPECT_NEAR(drop.change(), -0.2, 0.03);
}

TEST(JudgeCase, PairedRunsCancelDriftSharedByAPair) {
  const auto drift = runs(14, 1.0, 0.2, 6);
  std::vector<double> base, cur;
  for (std::size_t i = 0; i < drift.size(); ++i) {
    base.push_back(drift[i]);
    cur.push_back(drift[i] * (1.10 + 0.003 * (i % 3)));
  }
  EXPECT_EQ(judge(base, cur).outcome, CaseOutcome::inconclusive);
  CheckOptions paired;
  paired.paired = true;
  const CaseCheck c = judge(base, cur, paired);
  EXPECT_EQ(c.outcome, CaseOutcome::regression) << c.note;
  EXPECT_EQ(c.test.test, RunTest::paired);
}

TEST(JudgeCase, RunsWithoutTheCaseAreLeftOutAndFiguresMustBePositive) {
  const double nan = std::nan("");
  const CaseCheck c = judge({1.0, nan, 1.01, 0.99}, {1.0, 1.01, nan});
  EXPECT_EQ(c.test.baseline_runs, 3u);
  EXPECT_EQ(c.test.current_runs, 2u);
  const CaseCheck zero = judge({1.0, 0.0}, {1.0, 1.0});
  EXPECT_EQ(zero.outcome, CaseOutcome::inconclusive);
  EXPECT_TRUE(has(zero.note, "not positive"));
}

TEST(CheckRegressions, RunsOfOneBuildOnADriftingMachinePassOrSayWhyNot) {
  // 3 % drift from run to run, 8 runs a side: the within-run samples (1 % spread, 20 each) differ
  // "significantly" between any two runs, the builds do not.
  const CheckReport r = check_regressions(side_of(20, 8, 0.03, 1.0), side_of(21, 8, 0.03, 1.0), {});
  EXPECT_EQ(r.count(CaseOutcome::regression), 0u);
  for (const auto& c : r.cases) {
    EXPECT_TRUE(c.outcome == CaseOutcome::unchanged || !c.note.empty()) << c.note;
  }
}

TEST(CheckRegressions, ASlowedCollectiveIsNamedAndNoOther) {
  const CheckReport r = check_regressions(side_of(22, 6, 0.01, 1.0), side_of(23, 6, 0.01, 1.5), {});
  EXPECT_EQ(r.verdict, CheckVerdict::regression);
  ASSERT_EQ(r.count(CaseOutcome::regression), 1u);
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.outcome == CaseOutcome::regression, c.key.case_name == "all_reduce");
  }
  EXPECT_EQ(check_exit_code(r, true), 1);
}

TEST(CheckRegressions, OneRunASideIsInconclusiveWithExitFour) {
  const CheckReport r = check_regressions(side_of(24, 1, 0.01, 1.0), side_of(25, 1, 0.01, 3.0), {});
  EXPECT_EQ(r.verdict, CheckVerdict::inconclusive);
  EXPECT_EQ(r.count(CaseOutcome::regression), 0u);
  EXPECT_EQ(check_exit_code(r, false), kCheckInconclusiveExit);
  EXPECT_EQ(check_exit_code(r, true), 0);
}

TEST(CheckRegressions, MissingCasesAreListedNotJudged) {
  RunSide base, cur;
  base.runs.push_back(run_file("a.json", 1, 1, {{"all_reduce", 1e-3}, {"gone", 1e-3}}));
  cur.runs.push_back(run_file("b.json", 1, 2, {{"all_reduce", 1e-3}, {"new", 1e-3}}));
  const CheckReport r = check_regressions(base, cur, {});
  ASSERT_EQ(r.cases.size(), 1u);
  ASSERT_EQ(r.missing_in_current.size(), 1u);
  EXPECT_EQ(r.missing_in_current[0].key.case_name, "gone");
  ASSERT_EQ(r.missing_in_baseline.size(), 1u);
  EXPECT_EQ(r.missing_in_baseline[0].key.case_name, "new");
}

TEST(CheckRegressions, NoSharedFigureIsInconclusiveAndNoisyIsFlagged) {
  RunSide base, cur;
  base.runs.push_back(summarize_run(results_of({metric_record("x", 2, {{"gbps", 5}})}), "a"));
  cur.runs.push_back(summarize_run(results_of({metric_record("x", 2, {{"tflops", 5}})}), "b"));
  const CheckReport r = check_regressions(base, cur, {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].outcome, CaseOutcome::inconclusive);
  EXPECT_TRUE(has(r.cases[0].note, "no figure in common"));

  Record noisy = timed_record("x", 2, lognormal_samples(30, 1, 0.01, 10));
  noisy.status = RecordStatus::noisy;
  RunSide quiet, loud;
  quiet.runs.push_back(
      summarize_run(results_of({timed_record("x", 2, lognormal_samples(31, 1, 0.01, 10))}), "q"));
  loud.runs.push_back(summarize_run(results_of({noisy}), "n"));
  const CheckReport flagged = check_regressions(quiet, loud, {});
  EXPECT_TRUE(has(flagged.cases[0].note, "marked noisy in the current side"));
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
  o.power = 1;
  EXPECT_THROW(validate(o), InputError);
  EXPECT_NO_THROW(validate(CheckOptions{}));
}

TEST(CheckReportOutput, JsonCarriesEachRunsFiguresAndMarkdownTheDetectableChange) {
  const CheckReport report =
      check_regressions(side_of(40, 5, 0.01, 1.0), side_of(41, 5, 0.01, 1.3), {});
  const CheckContext context{{}, false};
  const auto j = check_report_json(report, context);
  EXPECT_EQ(j["verdict"], "regression");
  for (const char* key : {"regressions", "improvements", "inconclusive", "unchanged",
                          "missing_in_baseline", "missing_in_current"}) {
    EXPECT_TRUE(j.contains(key) && j[key].is_array()) << key;
  }
  ASSERT_EQ(j["regressions"].size(), 1u);
  const auto& c = j["regressions"][0];
  EXPECT_EQ(c["case"], "all_reduce");
  EXPECT_EQ(c["baseline_runs"].size(), 5u);
  EXPECT_EQ(c["current_runs"].size(), 5u);
  EXPECT_NEAR(c["change_pct"].get<double>(), 30.0, 4.0);
  EXPECT_TRUE(c["detectable_pct"].is_number());
  EXPECT_EQ(c["test"], "welch");
  EXPECT_EQ(j["baseline_runs"].size(), 5u);

  const std::string text = check_report_markdown(report, context);
  EXPECT_TRUE(has(text, "## Regressions (1)"));
  EXPECT_TRUE(has(text, "- collectives/all_reduce bytes=1M, 2 GPUs: time "));
  EXPECT_TRUE(has(text, ", runs 5/5, detectable "));
  EXPECT_TRUE(has(text, "never on the samples inside a run"));
  EXPECT_TRUE(has(text, "verdict: FAIL - 1 regression"));
}
