// `clusterbench compare` on the fixture files.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

using namespace cb::testing;

namespace {

const std::string kPair = fixture("cluster_h100.json") + " " + fixture("cluster_h200.json");

} // namespace

TEST(CompareCli, EnvironmentFirstThenCasesThenScaling) {
  const CliResult r = run_clusterbench("compare " + kPair);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto environment = r.out.find("## Environment");
  const auto cases = r.out.find("## Cases");
  const auto scaling = r.out.find("## Scaling efficiency");
  ASSERT_NE(environment, std::string::npos);
  EXPECT_LT(environment, cases);
  EXPECT_LT(cases, scaling);
  EXPECT_TRUE(contains(
      r.out, "| GPU model            | 8 x NVIDIA H100 80GB HBM3 | 8 x NVIDIA H200 | yes"));
  EXPECT_TRUE(contains(
      r.out, "| driver               | 550.54.15                 | 570.124.06      | yes"));
  // stream_triad on 1 GPU: H200 about 1.43 x faster, significant.
  EXPECT_TRUE(contains(r.out,
                       "| compute     | stream_triad | bytes=256M dtype=float                    "
                       "| 1    | GB/s       | 2995 GB/s  | 4277 GB/s  | 269 us | 188 us | 1.43 |"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "## Only in A (1)\n\n- compute/gemm"));
  EXPECT_TRUE(contains(r.out, "## Only in B (1)\n\n- collectives/all_gather"));
}

TEST(CompareCli, JsonCarriesEveryPart) {
  const CliResult r = run_clusterbench("compare --json " + kPair);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["environment"][0]["field"], "GPU model");
  EXPECT_EQ(j["cases"].size(), 7u);
  EXPECT_EQ(j["efficiency"].size(), 2u);
  for (const auto& c : j["cases"]) {
    EXPECT_LE(c["ci_low"].get<double>(), c["speed_ratio"].get<double>());
    EXPECT_GE(c["ci_high"].get<double>(), c["speed_ratio"].get<double>());
  }
}

TEST(CompareCli, FittedModelsOfBothRunsFollowTheEfficiency) {
  const CliResult r = run_clusterbench("compare " + kPair);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto scaling = r.out.find("## Scaling efficiency");
  const auto models = r.out.find("## Scaling models");
  const auto only_a = r.out.find("## Only in A");
  ASSERT_NE(models, std::string::npos) << r.out;
  EXPECT_LT(scaling, models);
  EXPECT_LT(models, only_a);
  const std::string section = r.out.substr(models, only_a - models);
  EXPECT_TRUE(contains(section, "| run | USL alpha | USL beta | peak N* | USL R2 | Amdahl serial "
                                "| Amdahl R2 |"))
      << section;
  // One row per run for each curve both measured at several GPU counts, A above B.
  const std::string all_reduce = "| collectives | all_reduce   | bytes=64M dtype=float "
                                 "out-of-place op=sum | busbw GB/s | ";
  const std::string triad = "| compute     | stream_triad | bytes=256M dtype=float          "
                            "          | GB/s       | ";
  const auto all_reduce_a = section.find(all_reduce + "A   | 0.0");
  const auto all_reduce_b = section.find(all_reduce + "B   | 0.0");
  const auto triad_a = section.find(triad + "A   | 0.0");
  const auto triad_b = section.find(triad + "B   | 0.0");
  ASSERT_NE(all_reduce_a, std::string::npos) << section;
  ASSERT_NE(triad_b, std::string::npos) << section;
  EXPECT_LT(all_reduce_a, all_reduce_b);
  EXPECT_LT(all_reduce_b, triad_a);
  EXPECT_LT(triad_a, triad_b);
  // The fit's warnings, per run and curve, under the table.
  EXPECT_TRUE(contains(section, "Fit notes:\n\n- A, collectives/all_reduce bytes=64M dtype=float "
                                "out-of-place op=sum (busbw GB/s):\n  - USL: "))
      << section;
}

TEST(CompareCli, JsonCarriesTheModelsOfBothRuns) {
  const CliResult r = run_clusterbench("compare --json " + kPair);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["models"].size(), 2u);
  const auto& all_reduce = j["models"][0];
  EXPECT_EQ(all_reduce["case"], "all_reduce");
  EXPECT_EQ(all_reduce["metric"], "busbw_gbps");
  const auto& triad = j["models"][1];
  EXPECT_EQ(triad["case"], "stream_triad");
  EXPECT_EQ(triad["metric"], "gbps");
  for (const char* side : {"a", "b"}) {
    // Generated at busbw efficiency 0.95 on 4 and 0.90 on 8 GPUs (of 2): about 1.6 % serial.
    const auto& usl = all_reduce[side]["usl"];
    EXPECT_EQ(usl["method"], "nls");
    EXPECT_NEAR(usl["alpha"].get<double>(), 0.0165, 0.002) << side;
    EXPECT_TRUE(usl["r2"].is_number()) << side;
    EXPECT_TRUE(usl["warnings"].is_array()) << side;
    EXPECT_NEAR(all_reduce[side]["amdahl"]["serial_fraction"].get<double>(), 0.0162, 0.002);
    EXPECT_GT(all_reduce[side]["amdahl"]["r2"].get<double>(), 0.99);
    // stream_triad at 93 % on 8 GPUs: about 1 % serial.
    EXPECT_NEAR(triad[side]["amdahl"]["serial_fraction"].get<double>(), 0.010, 0.002) << side;
    EXPECT_TRUE(triad[side]["usl"]["alpha"].is_number()) << side;
  }
}

TEST(CompareCli, AFailedPlotIsExplainedAndStillExitsZero) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("cb-plot-" + std::to_string(::getpid()));
  const CliResult r = run_clusterbench("compare --json " + kPair + " --plot " + dir.string(),
                                       "CLUSTERBENCH_PYTHON=/nonexistent/python3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "cannot start /nonexistent/python3")) << r.err;
  EXPECT_TRUE(contains(r.err, "matplotlib")) << r.err; // how to get the plots anyway
  EXPECT_TRUE(nlohmann::json::accept(r.out));          // the plot never pollutes stdout
  std::filesystem::remove_all(dir);
}

TEST(CompareCli, NothingInCommonOrBadFilesExitTwo) {
  const CliResult unrelated =
      run_clusterbench("compare " + fixture("cluster_h100.json") + " " + fixture("unrelated.json"));
  EXPECT_EQ(unrelated.exit_code, 2);
  EXPECT_TRUE(contains(unrelated.err, "have no measured case in common"));
  EXPECT_EQ(line_count(unrelated.err), 1);
  const CliResult malformed =
      run_clusterbench("compare " + fixture("malformed.json") + " " + fixture("cluster_h200.json"));
  EXPECT_EQ(malformed.exit_code, 2);
  EXPECT_TRUE(contains(malformed.err, "malformed.json: not valid JSON"));
  EXPECT_EQ(run_clusterbench("compare " + fixture("cluster_h100.json")).exit_code, 2);
}

TEST(CompareCli, OneRunASideSaysItsIntervalCoversWithinRunNoiseOnly) {
  const CliResult r = run_clusterbench("compare " + kPair);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "they cover within-run noise only, not the drift from one run to "
                              "the next"))
      << r.out;
  const auto j = nlohmann::json::parse(run_clusterbench("compare --json " + kPair).out);
  EXPECT_EQ(j["cases"][0]["interval_covers"], "within_run_noise_only");
  EXPECT_EQ(j["cases"][0]["a_runs"], 1);
}

TEST(CompareCli, DirectoriesOfRunsAreComparedOnRunMedians) {
  const std::string sides = fixture("runs/base") + " " + fixture("runs/slow");
  const CliResult r = run_clusterbench("compare " + sides);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "they cover the run-to-run spread")) << r.out;
  EXPECT_TRUE(contains(r.out, "| 5/5 runs |")) << r.out;
  const auto j = nlohmann::json::parse(run_clusterbench("compare --json " + sides).out);
  bool found = false;
  for (const auto& c : j["cases"]) {
    EXPECT_EQ(c["interval_covers"], "run_to_run_spread");
    EXPECT_EQ(c["a_count"], 5);
    if (c["case"] == "all_reduce" && c["gpus"] == 4 && c["params"]["bytes"] == 67108864) {
      found = true;
      EXPECT_NEAR(c["speed_ratio"].get<double>(), 1 / 1.5, 0.05); // B is the slowed build
      EXPECT_LT(c["ci_high"].get<double>(), 0.8);
      EXPECT_TRUE(c["significant"].get<bool>());
    }
  }
  EXPECT_TRUE(found);
  const CliResult foreign =
      run_clusterbench("compare " + fixture("runs/foreign") + " " + fixture("runs/base"));
  EXPECT_EQ(foreign.exit_code, 2);
  EXPECT_TRUE(contains(foreign.err, "holds notes.txt, which is not a run")) << foreign.err;
}
