// `clusterbench compare` on the fixture files.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

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
                       "| compute     | stream_triad | bytes=256M dtype=float                      "
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

TEST(CompareCli, AFailedPlotIsExplainedAndStillExitsZero) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("cb-plot-" + std::to_string(::getpid()));
  const CliResult r = run_clusterbench("compare --json " + kPair + " --plot " + dir.string(),
                                       "CLUSTERBENCH_PYTHON=/nonexistent/python3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "cannot start /nonexistent/python3")) << r.err;
  EXPECT_TRUE(contains(r.err, "matplotlib")) << r.err; // how to get the plots anyway
  EXPECT_TRUE(nlohmann::json::accept(r.out)); // the plot never pollutes stdout
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
