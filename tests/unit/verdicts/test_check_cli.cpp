// `clusterbench check` on the fixture files: exit codes and the lines a CI log reader looks for.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

using namespace cb::testing;

namespace {

CliResult check(const std::string& baseline, const std::string& current,
                const std::string& extra = "") {
  return run_clusterbench("check --baseline " + fixture(baseline) + " " + fixture(current) + " " +
                          extra);
}

// Five runs a side, as directories (runs/base, runs/same, runs/slow).
CliResult check_runs(const std::string& baseline_dir, const std::string& current_dir,
                     const std::string& extra = "") {
  return check("runs/" + baseline_dir, "runs/" + current_dir, extra);
}

} // namespace

TEST(CheckCli, ARunCheckedAgainstItselfPasses) {
  const CliResult r = check("baseline.json", "baseline.json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "verdict: PASS (10 cases compared, 0 improved, 0 missing)"));
  EXPECT_TRUE(r.err.empty()) << r.err;
  const CliResult runs = check_runs("base", "base");
  EXPECT_EQ(runs.exit_code, 0) << runs.out;
}

TEST(CheckCli, OneRunASideIsInconclusiveNeverAFailOnItsSamples) {
  // 20 samples a side and a 10 % slowdown: the U test on samples called it p 6.8e-08; one run a
  // side cannot tell that from the machine's drift between the two runs.
  const CliResult r = check("baseline.json", "slowdown_10pct.json");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "## Regressions"));
  EXPECT_TRUE(contains(r.out, "- collectives/all_reduce bytes=64M dtype=float out-of-place "
                              "op=sum, 4 GPUs: time 305 us -> 335 us (+9.9 %, p -, runs 1/1, "
                              "detectable -); one run a side cannot separate a change from the "
                              "machine's run-to-run drift"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "verdict: INCONCLUSIVE - 10 cases could not be judged"));
  const CliResult same = check("baseline.json", "same_distribution.json", "--allow-inconclusive");
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_TRUE(contains(same.out, "(allowed by --allow-inconclusive)"));
}

TEST(CheckCli, RunsOfTheSameBuildPass) {
  const CliResult r = check_runs("base", "same");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "verdict: PASS (10 cases compared, 0 improved, 0 missing)"));
  EXPECT_TRUE(contains(r.out, "| 5/5 "));
  // Paired, as interleaved A/B runs are judged.
  const CliResult paired = check_runs("base", "same", "--paired");
  EXPECT_EQ(paired.exit_code, 0) << paired.out;
  EXPECT_TRUE(contains(paired.out, "5 pairs"));
}

TEST(CheckCli, APlantedSlowdownOfOneCollectiveFailsAndNamesOnlyIt) {
  const CliResult r = check_runs("base", "slow");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "## Regressions (1)\n\n- collectives/all_reduce bytes=64M "
                              "dtype=float out-of-place op=sum, 4 GPUs: time "))
      << r.out;
  EXPECT_TRUE(contains(r.out, "verdict: FAIL - 1 regression"));
  const CliResult files = run_clusterbench(
      "check --baseline " + fixture("runs/base/run-01.json") + " --baseline " +
      fixture("runs/base/run-02.json") + " --baseline " + fixture("runs/base/run-03.json") + " " +
      fixture("runs/slow/run-01.json") + " " + fixture("runs/slow/run-02.json") + " " +
      fixture("runs/slow/run-03.json"));
  EXPECT_EQ(files.exit_code, 1) << files.out;
}

TEST(CheckCli, ADetectableChangeAboveTheThresholdIsSaidPlainly) {
  const CliResult r = check_runs("base", "same", "--threshold 0.001");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "this runner can only detect changes above"));
  EXPECT_TRUE(contains(r.out, "more than --threshold 0.1 %: neither a pass nor a failure"));
}

TEST(CheckCli, MissingCasesAreListedOnBothSides) {
  const CliResult r = check("baseline.json", "missing_cases.json", "--allow-inconclusive");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "## Missing in the current run (1)\n\n- collectives/all_gather "
                              "bytes=64M dtype=float out-of-place op=sum, 4 GPUs (skipped: needs "
                              "4 GPUs, 2 visible)"));
  EXPECT_TRUE(contains(r.out, "## Missing in the baseline (1)\n\n- collectives/alltoall"));
}

TEST(CheckCli, AGoogleBenchmarkFileIsOneRun) {
  const CliResult r = check("gbench_baseline.json", "gbench_slowdown.json");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "- google_benchmark/BM_Percentile/1024: time 21.6 us -> 25.8 us"));
  EXPECT_TRUE(contains(r.out, "one run a side cannot separate a change from the machine's "
                              "run-to-run drift; a Google Benchmark file is one run (its "
                              "repetitions shared one process)"))
      << r.out;
  const CliResult same = check("gbench_baseline.json", "gbench_baseline.json");
  EXPECT_EQ(same.exit_code, 0) << same.out;
}

TEST(CheckCli, JsonHasEveryListTheVerdictAndEachRunsFigures) {
  const CliResult r = check_runs("base", "slow", "--json");
  EXPECT_EQ(r.exit_code, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "regression");
  ASSERT_EQ(j["regressions"].size(), 1u);
  EXPECT_EQ(j["unchanged"].size(), 9u);
  const auto& c = j["regressions"][0];
  EXPECT_EQ(c["params"]["bytes"], 67108864);
  EXPECT_EQ(c["gpus"], 4);
  EXPECT_EQ(c["baseline_runs"].size(), 5u);
  EXPECT_EQ(c["current_runs"].size(), 5u);
  EXPECT_NEAR(c["change_pct"].get<double>(), 50.0, 5.0);
  EXPECT_EQ(j["current_runs"].size(), 5u);
  for (const char* key :
       {"improvements", "inconclusive", "missing_in_baseline", "missing_in_current"}) {
    EXPECT_TRUE(j[key].is_array()) << key;
  }
}

TEST(CheckCli, BadInputIsOneLineNamingTheFileAndExitTwo) {
  struct Case {
    std::string baseline, current, expected;
  };
  const std::vector<Case> cases = {
      {"baseline.json", "unrelated.json", "have no measured case in common"},
      {"baseline.json", "malformed.json", "malformed.json: not valid JSON"},
      {"malformed.json", "baseline.json", "malformed.json: not valid JSON"},
      {"baseline.json", "schema_v2.json",
       "schema_v2.json: field 'schema_version' is 2, this clusterbench reads 1"},
      {"baseline.json", "does_not_exist.json", "does_not_exist.json: cannot open"},
      {"runs/foreign", "baseline.json", "holds notes.txt, which is not a run"},
      {"runs/base --baseline " + fixture("runs/other_cases.json"), "runs/same",
       "the runs of one side must hold the same cases and GPU counts"},
      {"runs/base", "runs/same " + fixture("runs/other_backend.json"),
       "other_backend.json ran on host, "},
      {"runs/base", "runs/same/run-01.json --paired", "--paired: 5 baseline runs and 1 current"},
  };
  for (const auto& c : cases) {
    const CliResult r = check(c.baseline, c.current);
    EXPECT_EQ(r.exit_code, 2) << c.current << r.err;
    EXPECT_TRUE(contains(r.err, c.expected)) << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const CliResult unrelated = check("baseline.json", "unrelated.json");
  EXPECT_TRUE(
      contains(unrelated.err, fixture("baseline.json") + " and " + fixture("unrelated.json")));
  const CliResult other =
      check("runs/base --baseline " + fixture("runs/other_cases.json"), "runs/same");
  EXPECT_TRUE(contains(other.err, "other_cases.json lacks collectives/all_gather bytes=64M "
                                  "dtype=float out-of-place op=sum, 2 GPUs of "))
      << other.err;
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
  EXPECT_EQ(check("baseline.json", "same_distribution.json", "--power 1").exit_code, 2);
  const CliResult help = run_clusterbench("check --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--baseline"));
  EXPECT_TRUE(contains(help.out, "4 INCONCLUSIVE"));
}

TEST(CheckCli, HistoryFindsTheRunWhereAChangeEntered) {
  // Five runs of the build before the change, five after: names sort oldest first.
  const auto dir =
      std::filesystem::temp_directory_path() / ("cb-history-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (int i = 1; i <= 5; ++i) {
    const std::string n = "run-0" + std::to_string(i) + ".json";
    std::filesystem::copy_file(fixture("runs/base/" + n),
                               dir / ("h-0" + std::to_string(i) + ".json"));
    std::filesystem::copy_file(
        fixture("runs/slow/" + n),
        dir / ("h-" + std::to_string(i + 5 < 10 ? 0 : 1) + std::to_string((i + 5) % 10) + ".json"));
  }
  const CliResult r = run_clusterbench("check --history " + dir.string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "| collectives/all_reduce bytes=64M dtype=float out-of-place op=sum, "
                              "4 GPUs | time     | h-06.json      | 305 us | 458 us | +49.9 % |"))
      << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 9) << r.out; // that row alone
  EXPECT_TRUE(contains(r.out, "9 cases without a change point"));
  const auto j =
      nlohmann::json::parse(run_clusterbench("check --json --history " + dir.string()).out);
  EXPECT_EQ(j["history"].size(), 10u);
  EXPECT_EQ(j["cases"][3]["change_points"][0]["direction"], "worse");

  std::ofstream(dir / "notes.txt") << "not a run\n";
  const CliResult foreign = run_clusterbench("check --history " + dir.string());
  EXPECT_EQ(foreign.exit_code, 2);
  EXPECT_TRUE(contains(foreign.err, "holds notes.txt, which is not a run")) << foreign.err;
  std::filesystem::remove_all(dir);
  const CliResult mixed = run_clusterbench("check --history " + fixture("runs/base") +
                                           " --baseline " + fixture("baseline.json"));
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_TRUE(contains(mixed.err, "--history: takes the runs of DIR alone"));
}
