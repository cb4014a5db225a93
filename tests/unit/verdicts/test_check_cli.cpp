// `clusterbench check` on the fixture files: exit codes and the lines a CI log reader looks for.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

using namespace cb::testing;

namespace {

CliResult check(const std::string& baseline, const std::string& current,
                const std::string& extra = "") {
  return run_clusterbench("check --baseline " + fixture(baseline) + " " + fixture(current) + " " +
                          extra);
}

} // namespace

TEST(CheckCli, TwoRunsOfTheSameDistributionPass) {
  const CliResult r = check("baseline.json", "same_distribution.json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "verdict: PASS (10 cases compared, 0 improved, 0 missing)"));
  EXPECT_FALSE(contains(r.out, "REGRESSION"));
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CheckCli, TenPercentSlowdownWithTwentySamplesFails) {
  const CliResult r = check("baseline.json", "slowdown_10pct.json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "## Regressions (1)"));
  EXPECT_TRUE(contains(r.out, "- collectives/all_reduce bytes=64M dtype=float out-of-place "
                              "op=sum, 4 GPUs: time 305 us -> 335 us (+9.9 %, p 6.8e-08, n 20/20)"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "verdict: FAIL - 1 regression"));
}

TEST(CheckCli, ThresholdAboveTheSlowdownPasses) {
  const CliResult r = check("baseline.json", "slowdown_10pct.json", "--threshold 0.15");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(CheckCli, TenPercentWithThreeSamplesIsInconclusive) {
  const CliResult r = check("few_samples_baseline.json", "few_samples_slowdown.json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "| INCONCLUSIVE |"));
  EXPECT_TRUE(
      contains(r.out, "3 values in the baseline, 3 in the current run; --min-samples is 5"));
  EXPECT_TRUE(contains(r.out, "verdict: INCONCLUSIVE - 1 case could not be judged"));
  const CliResult allowed =
      check("few_samples_baseline.json", "few_samples_slowdown.json", "--allow-inconclusive");
  EXPECT_EQ(allowed.exit_code, 0);
  EXPECT_TRUE(contains(allowed.out, "(allowed by --allow-inconclusive)"));
}

TEST(CheckCli, AnImprovementIsReportedAndPasses) {
  const CliResult r = check("baseline.json", "improvement.json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "## Improvements (1)"));
  EXPECT_TRUE(contains(r.out, "- compute/stream_triad bytes=256M dtype=float, 4 GPUs: time"));
  EXPECT_TRUE(contains(r.out, "verdict: PASS (10 cases compared, 1 improved, 0 missing)"));
}

TEST(CheckCli, MissingCasesAreListedOnBothSides) {
  const CliResult r = check("baseline.json", "missing_cases.json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "## Missing in the current run (1)\n\n- collectives/all_gather "
                              "bytes=64M dtype=float out-of-place op=sum, 4 GPUs (skipped: needs "
                              "4 GPUs, 2 visible)"));
  EXPECT_TRUE(contains(r.out, "## Missing in the baseline (1)\n\n- collectives/alltoall"));
}

TEST(CheckCli, GoogleBenchmarkRepetitionsAreGatedToo) {
  const CliResult r = check("gbench_baseline.json", "gbench_slowdown.json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "- google_benchmark/BM_Percentile/1024: time 21.6 us -> 25.8 us"));
  const CliResult same = check("gbench_baseline.json", "gbench_baseline.json");
  EXPECT_EQ(same.exit_code, 0) << same.out;
}

TEST(CheckCli, JsonHasEveryListAndTheVerdict) {
  const CliResult r = check("baseline.json", "slowdown_10pct.json", "--json");
  EXPECT_EQ(r.exit_code, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "regression");
  EXPECT_EQ(j["regressions"].size(), 1u);
  EXPECT_EQ(j["unchanged"].size(), 9u);
  EXPECT_EQ(j["regressions"][0]["params"]["bytes"], 67108864);
  EXPECT_EQ(j["regressions"][0]["gpus"], 4);
  for (const char* key :
       {"improvements", "inconclusive", "missing_in_baseline", "missing_in_current"}) {
    EXPECT_TRUE(j[key].is_array()) << key;
  }
}

TEST(CheckCli, BadInputIsOneLineNamingTheFileAndExitTwo) {
  struct Case {
    std::string current, expected;
  };
  const std::vector<Case> cases = {
      {"unrelated.json", "have no measured case in common"},
      {"malformed.json", "malformed.json: not valid JSON"},
      {"schema_v2.json", "schema_v2.json: field 'schema_version' is 2, this clusterbench reads 1"},
      {"does_not_exist.json", "does_not_exist.json: cannot open"},
  };
  for (const auto& c : cases) {
    const CliResult r = check("baseline.json", c.current);
    EXPECT_EQ(r.exit_code, 2) << c.current << r.err;
    EXPECT_TRUE(contains(r.err, c.expected)) << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const CliResult unrelated = check("baseline.json", "unrelated.json");
  EXPECT_TRUE(
      contains(unrelated.err, fixture("baseline.json") + " and " + fixture("unrelated.json")));
  const CliResult unit = check("gbench_baseline.json", "gbench_bad_unit.json");
  EXPECT_EQ(unit.exit_code, 2);
  EXPECT_TRUE(contains(unit.err, "gbench_bad_unit.json: benchmarks[4]: field 'time_unit' is "
                                 "'fortnights', allowed ns|us|ms|s"));
}

TEST(CheckCli, BadUsageExitsTwo) {
  EXPECT_EQ(run_clusterbench("check " + fixture("baseline.json")).exit_code, 2); // no --baseline
  const CliResult alpha = check("baseline.json", "same_distribution.json", "--alpha 2");
  EXPECT_EQ(alpha.exit_code, 2);
  EXPECT_TRUE(contains(alpha.err, "--alpha"));
  EXPECT_EQ(check("baseline.json", "same_distribution.json", "--threshold x").exit_code, 2);
  EXPECT_EQ(check("baseline.json", "same_distribution.json", "--min-samples 0").exit_code, 2);
  const CliResult help = run_clusterbench("check --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--baseline"));
}
