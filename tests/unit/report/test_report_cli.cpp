// Runs the clusterbench binary as a user would: `report`'s output, exit codes and messages.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

using Outcome = cb::testing::CliResult;

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class ReportCli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cb-report-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  static std::string fixture(const std::string& name) {
    return std::string(CB_SOURCE_DIR) + "/tests/fixtures/" + name;
  }

  // `env` is put in front of the command ("NAME=value ...").
  Outcome run(const std::string& args, const std::string& env = "") const {
    return cb::testing::run_clusterbench("report " + args, env);
  }

  // A Python that starts but cannot import matplotlib.
  std::string python_without_matplotlib() const {
    const std::string path = file("python-without-matplotlib");
    std::ofstream(path)
        << "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'matplotlib'\" >&2\n"
           "exit 1\n";
    ::chmod(path.c_str(), 0755);
    return path;
  }

  fs::path dir_;
};

TEST_F(ReportCli, Help) {
  const Outcome o = run("--help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(
      o.out.find("usage: clusterbench report RESULTS.json [--html FILE] [--plots DIR] [--json]"),
      std::string::npos);
}

TEST_F(ReportCli, HelpDocumentsThePredictionFlags) {
  const Outcome o = run("--help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("--predict-to N"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default 1024"), std::string::npos);
  EXPECT_NE(o.out.find("default 64 and --predict-to"), std::string::npos);
  EXPECT_NE(o.out.find("default 4 per token"), std::string::npos);
  EXPECT_NE(o.out.find("0 = none"), std::string::npos);
}

// A results file with GEMM and all-reduce but no storage: the headline still predicts the step
// at 64 and 1024 GPUs and its cost, without input reads, and says so.
TEST_F(ReportCli, WithoutStorageTheHeadlineStillPredicts) {
  std::ifstream in(fixture("report/h200_cluster.json"));
  auto results = nlohmann::json::parse(in);
  auto& records = results["records"];
  records.erase(std::remove_if(records.begin(), records.end(),
                               [](const nlohmann::json& r) { return r["suite"] == "storage"; }),
                records.end());
  const std::string path = file("no-storage.json");
  std::ofstream(path) << results.dump();

  Outcome o = run(path + " --json --gpu-hours 4000 --price 2.5");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  auto j = nlohmann::json::parse(o.out);
  const auto& prediction = j["headline"]["prediction"];
  ASSERT_TRUE(prediction.is_object()) << j["headline"].dump(2);
  EXPECT_EQ(prediction["input_left_out"], true);
  EXPECT_EQ(prediction["at"][0]["gpus"], 64);
  EXPECT_EQ(prediction["at"][1]["gpus"], 1024);
  EXPECT_TRUE(prediction["at"][1]["cost"].is_number());

  o = run(path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("Input reads were not measured, so they are not included."),
            std::string::npos)
      << o.out;

  // 0 bytes per step: no input reads, nothing left out.
  o = run(path + " --json --bytes-per-step 0");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["headline"]["prediction"]["input_left_out"], false);
  EXPECT_EQ(j["headline"]["prediction"]["config"]["bytes_per_step"], 0.0);
}

TEST_F(ReportCli, PredictTo) {
  Outcome o = run(fixture("report/h200_cluster.json") + " --json --predict-to 256");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["options"]["outlook_gpus"], nlohmann::json({64, 256}));
  EXPECT_EQ(j["options"]["predict_to"], 256);
  EXPECT_EQ(j["headline"]["horizon_gpus"], 256);
  EXPECT_EQ(j["headline"]["prediction"]["config"]["predict_to"], 256);
  EXPECT_EQ(j["headline"]["prediction"]["steps"].back()["gpus"], 256);
  o = run(fixture("report/h200_cluster.json") + " --predict-to 1024 --at 64,2048");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "clusterbench report: --at: 2048 GPUs lies beyond --predict-to 1024; raise "
                   "--predict-to or drop it\n");
}

TEST_F(ReportCli, MarkdownOnStdout) {
  const Outcome o = run(fixture("plots/host_cluster.json"));
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("# clusterbench report: ", 0), 0u);
  EXPECT_NE(o.out.find("## Headline"), std::string::npos);
  EXPECT_NE(o.out.find("**Limits scaling first:**"), std::string::npos);
  EXPECT_EQ(o.err, "");
}

TEST_F(ReportCli, JsonOnStdout) {
  const Outcome o = run(fixture("report/h200_cluster.json") + " --json --gpu-hours 4000 --price 2");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["headline"]["limits_first"]["part"], "collectives/all_reduce");
  EXPECT_TRUE(j["headline"]["prediction"]["at"][0]["cost"].is_number());
}

TEST_F(ReportCli, NoRecordsIsBadInputNamingTheFile) {
  const std::string path = file("empty.json");
  std::ofstream(path) << R"({"schema": "clusterbench.results", "schema_version": 1, "run": {},
                            "records": []})";
  const Outcome o = run(path);
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "clusterbench report: " + path +
                       ": no records to report on (the records array is empty); run 'clusterbench "
                       "run' first or give a results file that has records\n");
  EXPECT_EQ(o.out, "");
}

TEST_F(ReportCli, MalformedResultsNameTheFile) {
  const std::string path = file("broken.json");
  std::ofstream(path) << "{ not json";
  const Outcome o = run(path);
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find(path), std::string::npos);
  EXPECT_EQ(lines(o.err), 1u);
}

TEST_F(ReportCli, UnwritableHtmlIsBadInputNamingTheFlag) {
  Outcome o = run(fixture("plots/host_cluster.json") + " --html " + file("no/such/dir/r.html"));
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err.rfind("clusterbench report: --html ", 0), 0u) << o.err;
  EXPECT_EQ(lines(o.err), 1u);
  EXPECT_EQ(o.out, ""); // nothing done before the check
  o = run(fixture("plots/host_cluster.json") + " --html " + dir_.string());
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--html " + dir_.string() + ": is a folder"), std::string::npos);
}

TEST_F(ReportCli, BadFlagsAreBadInput) {
  Outcome o = run(fixture("plots/host_cluster.json") + " --overlap 3");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--overlap"), std::string::npos);
  o = run(fixture("plots/host_cluster.json") + " --bogus");
  EXPECT_EQ(o.exit_code, 2);
  o = run("");
  EXPECT_EQ(o.exit_code, 2);
}

TEST_F(ReportCli, WithoutMatplotlibTheTablesStandAndOneLineSaysHow) {
  const Outcome o = run(fixture("plots/host_cluster.json") + " --plots " + file("plots") +
                            " --html " + file("r.html"),
                        "CLUSTERBENCH_PYTHON=" + python_without_matplotlib());
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(lines(o.err), 1u) << o.err;
  EXPECT_NE(o.err.find("apt-get install python3-matplotlib"), std::string::npos);
  EXPECT_NE(o.err.find("pip install -r"), std::string::npos);
  EXPECT_EQ(o.err.find("Traceback"), std::string::npos);
  EXPECT_NE(o.out.find("## collectives"), std::string::npos);
  EXPECT_NE(o.out.find("## Plots"), std::string::npos);
  std::ifstream html_file(file("r.html"));
  std::stringstream html;
  html << html_file.rdbuf();
  EXPECT_NE(html.str().find("<h2>Headline</h2>"), std::string::npos);
  EXPECT_EQ(html.str().find("data:image"), std::string::npos);
}

TEST_F(ReportCli, WithoutPythonTheTablesStand) {
  const Outcome o = run(fixture("plots/host_cluster.json") + " --plots " + file("plots"),
                        "CLUSTERBENCH_PYTHON=/nonexistent/python3");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(lines(o.err), 1u) << o.err;
  EXPECT_NE(o.err.find("cannot start /nonexistent/python3"), std::string::npos);
  EXPECT_NE(o.err.find("apt-get install python3-matplotlib"), std::string::npos);
}

TEST_F(ReportCli, WithoutThePlotScriptOneLineSaysWhere) {
  const Outcome o = run(fixture("plots/host_cluster.json") + " --plots " + file("plots"),
                        "CLUSTERBENCH_PLOTS=" + file("nowhere"));
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(lines(o.err), 1u) << o.err;
  EXPECT_NE(o.err.find("plots/plot.py was not found"), std::string::npos);
  EXPECT_NE(o.err.find("CLUSTERBENCH_PLOTS"), std::string::npos);
}

} // namespace
