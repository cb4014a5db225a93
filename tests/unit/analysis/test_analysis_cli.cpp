// Runs the clusterbench binary as a user would: fit and cost, their output and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../cli_runner.hpp"
#include "results/results_io.hpp"

namespace fs = std::filesystem;

namespace {

using Outcome = cb::testing::CliResult;

class CliTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cb-analysis-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string file(const std::string& name) const { return (dir_ / name).string(); }

  void write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
  }

  Outcome run(const std::string& args) const { return cb::testing::run_clusterbench(args); }

  // A host-style run: triad throughput on 1..16 GPUs with USL-shaped scaling, all_reduce over
  // message sizes on 2..8 GPUs, and GEMM on one GPU.
  std::string write_results(const std::string& name) const {
    cb::ResultsFile f;
    f.run = {{"id", "cli-test"}, {"backend", "host"}};
    auto record = [](const std::string& suite, const std::string& c, nlohmann::json params,
                     int gpus, nlohmann::json metrics, double seconds) {
      cb::Record r;
      r.suite = suite;
      r.case_name = c;
      r.params = std::move(params);
      r.gpus = gpus;
      r.ranks_per_node = gpus;
      r.samples_s.assign(5, seconds);
      r.stats = cb::summarize(r.samples_s);
      r.metrics = std::move(metrics);
      return r;
    };
    for (int n : {1, 2, 4, 8, 16}) {
      const double gbps = 10.0 * n / (1 + 0.05 * (n - 1) + 0.002 * n * (n - 1));
      f.records.push_back(
          record("compute", "triad", {{"bytes", 1 << 26}}, n, {{"gbps", gbps}}, 1e-3));
    }
    for (int p : {2, 4, 8}) {
      for (double bytes = 1024; bytes <= 64.0 * 1024 * 1024; bytes *= 16) {
        const double t = 2.0 * (p - 1) * 20e-6 + 2.0 * (p - 1) / p * bytes / 5e9;
        const double busbw = bytes / t / 1e9 * 2.0 * (p - 1) / p;
        f.records.push_back(
            record("collectives", "all_reduce",
                   {{"bytes", static_cast<std::uint64_t>(bytes)}, {"in_place", false}}, p,
                   {{"time_us", t * 1e6}, {"busbw_gbps", busbw}}, t));
      }
    }
    f.records.push_back(record("compute", "gemm", {{"m", 4096}, {"n", 4096}, {"k", 4096}}, 1,
                               {{"gflops", 500.0}}, 0.27));
    cb::write_results_atomic(f, file(name));
    return file(name);
  }

  fs::path dir_;
};

} // namespace

TEST_F(CliTest, CostWorkedExample) {
  auto r = run("cost --gpu-hours 4000 --price 2.50 --gpus 64 --efficiency 0.70");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "64 GPUs at 70.0 % efficiency: 89.29 h (3.72 days), $14,285.71, 42.9 % over the ideal "
            "$10,000.00\n");
  r = run("cost --gpu-hours 4000 --price 2.50 --gpus 8 --efficiency 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["wall_hours"].get<double>(), 500);
  EXPECT_NEAR(j["wall_days"].get<double>(), 20.83, 0.005);
  EXPECT_DOUBLE_EQ(j["cost"].get<double>(), 10000);
  EXPECT_DOUBLE_EQ(j["overhead_fraction"].get<double>(), 0);
  EXPECT_FALSE(j.contains("cost_per_useful_gpu_hour"));
  r = run("cost --gpu-hours 4000 --price 2.50 --gpus 8 --efficiency 1 --utilization 0.5 --json");
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(r.out)["cost_per_useful_gpu_hour"].get<double>(), 5.0);
}

TEST_F(CliTest, CostRefusesBadFlags) {
  const std::pair<const char*, const char*> cases[] = {
      {"--gpu-hours 4000 --price 0 --gpus 8 --efficiency 1", "--price"},
      {"--gpu-hours 4000 --price 2 --gpus 0 --efficiency 1", "--gpus"},
      {"--gpu-hours 4000 --price 2 --gpus 8 --efficiency 1.5", "--efficiency"},
      {"--gpu-hours 4000 --price 2 --gpus 8 --efficiency 0", "--efficiency"},
      {"--gpu-hours 4000 --price 2 --gpus 8 --efficiency 1 --utilization 0", "--utilization"},
      {"--price 2 --gpus 8 --efficiency 1", "--gpu-hours"},
      {"--gpu-hours 4000 --price 2 --gpus 8", "--efficiency"},
      {"--gpu-hours 4000 --price two --gpus 8 --efficiency 1", "--price"},
      {"--gpu-hours 4000 --price 2 --gpus 8 --efficiency 1 --overlap 0.5", "--overlap"},
  };
  for (const auto& [args, flag] : cases) {
    const auto r = run(std::string("cost ") + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find(flag), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST_F(CliTest, FitLeavesItsInputAloneUnlessInPlace) {
  const std::string path = write_results("run.json");
  const std::string before = cb::testing::read_file(path);
  auto r = run("fit " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("fits not written"), std::string::npos) << r.out;
  EXPECT_EQ(cb::testing::read_file(path), before);
  EXPECT_EQ(run("fit " + path + " --in-place --out " + file("x.json")).exit_code, 2);
  EXPECT_EQ(run("fit --csv " + path + " --in-place --model usl").exit_code, 2);
}

TEST_F(CliTest, FitInPlaceRewritesTheResultsFileWithFits) {
  const std::string path = write_results("run.json");
  const auto r = run("fit " + path + " --in-place");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("compute/triad"), std::string::npos);
  EXPECT_NE(r.out.find("ring all_reduce (intra)"), std::string::npos);
  const auto fitted = cb::load_results(path);
  ASSERT_TRUE(fitted.fits["curves"].is_array());
  const auto& triad = fitted.fits["curves"][0];
  EXPECT_EQ(triad["case"], "triad");
  EXPECT_NEAR(triad["usl"]["alpha"].get<double>(), 0.05, 1e-6);
  EXPECT_NEAR(fitted.fits["alpha_beta"]["ring_all_reduce"][0]["alpha_us"].get<double>(), 20, 1e-4);
  EXPECT_EQ(fitted.records.size(), 5u + 3 * 5 + 1);
}

TEST_F(CliTest, FitToAnotherFileAsJson) {
  const std::string path = write_results("run.json");
  const auto before = cb::load_results(path);
  const auto r = run("fit " + path + " --out " + file("fitted.json") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto printed = nlohmann::json::parse(r.out);
  EXPECT_TRUE(printed.contains("curves"));
  EXPECT_EQ(cb::load_results(file("fitted.json")).fits, printed);
  EXPECT_TRUE(cb::load_results(path).fits.empty()); // the input is left alone
}

TEST_F(CliTest, FitWithNothingFittableExitsTwo) {
  cb::ResultsFile f;
  f.run = {{"id", "x"}};
  cb::write_results_atomic(f, file("empty.json"));
  const auto r = run("fit " + file("empty.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(file("empty.json") + ": nothing to fit"), std::string::npos) << r.err;
  EXPECT_EQ(run("fit " + file("missing.json")).exit_code, 2);
  EXPECT_EQ(run("fit").exit_code, 2);
}

TEST_F(CliTest, FitCsvUsl) {
  write(
      "sdm.csv",
      "n,throughput\n1,64.9\n18,995.9\n36,1652.4\n72,1853.2\n108,1828.9\n144,1775.0\n216,1702.2\n");
  auto r = run("fit --csv " + file("sdm.csv") + " --model usl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["alpha"].get<double>(), 0.0277285, 0.0277285 * 0.002);
  EXPECT_NEAR(j["beta"].get<double>(), 1.044e-4, 1.044e-4 * 0.002);
  EXPECT_NEAR(j["gamma"].get<double>(), 89.99523, 89.99523 * 0.002);
  EXPECT_NEAR(j["n_peak"].get<double>(), 96.51956, 96.51956 * 0.002);
  EXPECT_TRUE(j["r2"].is_number());
  r = run("fit --csv " + file("sdm.csv") + " --model usl --method linearised");
  j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["alpha"].get<double>(), 0.0170469, 0.0170469 * 0.002);
  EXPECT_NEAR(j["beta"].get<double>(), 7.8925e-5, 7.8925e-5 * 0.002);
  r = run("fit --csv " + file("sdm.csv") + " --model amdahl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["serial_fraction"].is_number());
  EXPECT_TRUE(j["r2"].is_number());
}

TEST_F(CliTest, FitCsvRefusesBadInput) {
  write("text.csv", "n,throughput\n1,10\n2,fast\n4,30\n");
  auto r = run("fit --csv " + file("text.csv") + " --model usl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "clusterbench fit: " + file("text.csv") +
                       ": row 2 (line 3), field 'throughput': 'fast' is not a number\n");
  write("short.csv", "n,throughput\n1,10\n2,19\n");
  EXPECT_EQ(run("fit --csv " + file("short.csv") + " --model usl").exit_code, 2);
  write("column.csv", "n\n1\n2\n3\n");
  EXPECT_EQ(run("fit --csv " + file("column.csv") + " --model usl").exit_code, 2);
  write("ok.csv", "n,throughput\n2,10\n4,19\n8,30\n");
  r = run("fit --csv " + file("ok.csv") + " --model amdahl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("n = 1"), std::string::npos);
  EXPECT_EQ(run("fit --csv " + file("ok.csv")).exit_code, 2);
  EXPECT_EQ(run("fit --csv " + file("ok.csv") + " --model gustafson").exit_code, 2);
  EXPECT_EQ(run("fit --csv " + file("ok.csv") + " --model usl --method guess").exit_code, 2);
  EXPECT_EQ(run("fit --csv " + file("ok.csv") + " --model usl").exit_code, 0);
  // Three rows at one n are one point measured three times, not a curve.
  write("one_n.csv", "n,throughput\n1,10\n1,10.5\n1,9.5\n");
  r = run("fit --csv " + file("one_n.csv") + " --model usl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "clusterbench fit: " + file("one_n.csv") +
                       ", field 'n': 3 data rows but 1 different value of n (1); a fit needs at "
                       "least 3\n");
  EXPECT_EQ(r.out, "");
}

TEST_F(CliTest, FitCsvWarnsWhereTheDataCannotSupportTheFit) {
  // Super-linear: efficiency 1.1, 1.2, 1.3 on 2, 4, 8.
  write("super.csv", "n,throughput\n1,10\n2,22\n4,48\n8,104\n");
  auto r = run("fit --csv " + file("super.csv") + " --model usl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["warnings"].is_array());
  EXPECT_NE(j["warnings"].dump().find("alpha and beta held at their lower bound 0"),
            std::string::npos)
      << j.dump(2);
  EXPECT_NE(r.err.find("clusterbench fit: warning: alpha and beta held at their lower bound 0"),
            std::string::npos)
      << r.err;
  r = run("fit --csv " + file("super.csv") + " --model amdahl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_NE(j["warnings"].dump().find("superlinear"), std::string::npos) << j.dump(2);
  // Three counts for alpha, beta and gamma: an exact fit, said to be one.
  write("three.csv", "n,throughput\n1,10\n2,19\n4,30\n");
  r = run("fit --csv " + file("three.csv") + " --model usl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(nlohmann::json::parse(r.out)["warnings"].dump().find("3 informative GPU counts"),
            std::string::npos);
}

TEST_F(CliTest, FitStoresAndPrintsWarningsOfWeakCurves) {
  cb::ResultsFile f;
  f.run = {{"id", "weak"}};
  for (const auto& [n, gbps] : std::vector<std::pair<int, double>>{{1, 10}, {2, 22}, {4, 48}}) {
    cb::Record r;
    r.suite = "compute";
    r.case_name = "copy";
    r.params = {{"bytes", 1 << 26}};
    r.gpus = n;
    r.ranks_per_node = n;
    r.samples_s.assign(5, 1e-3);
    r.stats = cb::summarize(r.samples_s);
    r.metrics = {{"gbps", gbps}};
    f.records.push_back(r);
  }
  cb::write_results_atomic(f, file("weak.json"));
  auto r = run("fit " + file("weak.json") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto usl = nlohmann::json::parse(r.out)["curves"][0]["usl"];
  EXPECT_NE(usl["warnings"].dump().find("held at their lower bound 0"), std::string::npos)
      << usl.dump(2);
  EXPECT_NE(usl["warnings"].dump().find("3 informative GPU counts"), std::string::npos);
  r = run("fit " + file("weak.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("warning: compute/copy bytes=64M: USL: alpha and beta held"),
            std::string::npos)
      << r.out;
}

TEST_F(CliTest, FitOfARunWithTwoGpuCountsEndsWithOneLineOfWhatIsNotFitted) {
  cb::ResultsFile f;
  f.run = {{"id", "two-counts"}};
  auto add = [&](const std::string& suite, const std::string& c, nlohmann::json params, int n,
                 nlohmann::json metrics, double seconds) {
    cb::Record r;
    r.suite = suite;
    r.case_name = c;
    r.params = std::move(params);
    r.gpus = n;
    r.ranks_per_node = n;
    r.samples_s.assign(5, seconds);
    r.stats = cb::summarize(r.samples_s);
    r.metrics = std::move(metrics);
    f.records.push_back(r);
  };
  for (int n : {1, 2}) {
    for (const char* c : {"copy", "scale", "add", "triad"})
      add("compute", c, {{"bytes", 1 << 26}}, n, {{"gbps", 10.0 * n}}, 1e-3);
    for (double bytes : {1e6, 4e6, 16e6}) {
      const double t = 20e-6 + bytes / 5e9;
      add("collectives", "all_reduce",
          {{"bytes", static_cast<std::uint64_t>(bytes)}, {"dtype", "float"}, {"op", "sum"}}, n,
          {{"time_us", t * 1e6}, {"busbw_gbps", bytes / t / 1e9}}, t);
    }
  }
  cb::write_results_atomic(f, file("two.json"));
  auto r = run("fit " + file("two.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t warnings = 0;
  for (std::size_t at = r.out.find("warning:"); at != std::string::npos;
       at = r.out.find("warning:", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.out;
  const std::string last = "warning: USL/Amdahl not fitted for 5 curves: 2 GPU counts, need 3\n";
  ASSERT_GE(r.out.size(), last.size());
  EXPECT_EQ(r.out.substr(r.out.size() - last.size()), last) << r.out;
  // Every curve's own reasons stay in the fits section.
  r = run("fit " + file("two.json") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["curves"].size(), 7u); // 4 compute, 3 all_reduce sizes
  for (const auto& c : j["curves"])
    EXPECT_NE(c["usl"]["warnings"].dump().find("needs at least 3"), std::string::npos) << c;
}

TEST_F(CliTest, CostFromResults) {
  const std::string path = write_results("run.json");
  auto r = run("cost --gpu-hours 1000 --price 3 --gpus 8 --from " + path +
               " --model-params 125M --tokens-per-gpu 2048 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // 6 x 125e6 x 2048 flop at 0.5 TFLOP/s; 250 MB all-reduced on 8 GPUs by the fitted ring.
  const double compute = 6 * 125e6 * 2048 / 0.5e12;
  const double all_reduce = 14 * 20e-6 + 14.0 / 8 * 250e6 / 5e9;
  EXPECT_NEAR(j["efficiency"].get<double>(), compute / (compute + all_reduce), 1e-6);
  EXPECT_EQ(j["prediction"]["gpus"], 8);
  r = run("cost --gpu-hours 1000 --price 3 --gpus 8 --from " + path + " --tokens-per-gpu 2048");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--model-params"), std::string::npos);
  r = run("cost --gpu-hours 1000 --price 3 --gpus 8 --from " + path +
          " --model-params 1B --tokens-per-gpu 2048 --bytes-per-step 1M");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("seq_read"), std::string::npos);
}

// The results have no storage records: the default input read (4 bytes per token, as in report)
// is left out and said to be; --bytes-per-step 0 says there is none.
TEST_F(CliTest, CostFromResultsWithoutStorage) {
  const std::string path = write_results("run.json");
  const std::string job = "cost --gpu-hours 1000 --price 3 --gpus 8 --from " + path +
                          " --model-params 125M --tokens-per-gpu 2048";
  auto r = run(job + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["prediction"]["input_left_out"], true);
  EXPECT_EQ(j["prediction"]["input_s"], 0.0);
  EXPECT_NE(j["prediction"]["warnings"].dump().find("input reads not measured"), std::string::npos);
  EXPECT_NE(j["prediction"]["warnings"].dump().find("8192 bytes"), std::string::npos);
  const double efficiency = j["efficiency"].get<double>();

  r = run(job + " --bytes-per-step 0 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["prediction"]["input_left_out"], false);
  EXPECT_DOUBLE_EQ(j["efficiency"].get<double>(), efficiency);

  r = run(job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("input not measured"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warning: input reads not measured"), std::string::npos) << r.out;

  r = run(job + " --bytes-per-step lots");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "clusterbench cost: --bytes-per-step: expected 0 (no input reads) or a size "
                   "such as 64K, 1M or 2G, got 'lots'\n");
  r = run("cost --help");
  EXPECT_NE(r.out.find("default 4 per token"), std::string::npos);
}

TEST_F(CliTest, CostRefusesFiguresPastItsBounds) {
  // Finite but absurd: each would overflow a cost to inf or print a number of 300 digits.
  for (const std::string args :
       {"--gpu-hours 1e308 --price 2 --gpus 8 --efficiency 0.5",
        "--gpu-hours 100 --price 1e300 --gpus 8 --efficiency 0.5",
        "--gpu-hours 100 --price 2 --gpus 8 --efficiency 1e-300",
        "--gpu-hours 100 --price 2 --gpus 8 --efficiency 0.5 --utilization 1e-300",
        "--gpu-hours 100 --price 2 --gpus 4294967297 --efficiency 0.5"}) {
    const auto r = run("cost " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(run("cost --gpu-hours 1e12 --price 1e6 --gpus 8 --efficiency 1e-6").exit_code, 0);
}

namespace {

// A run that measured the training step at 1 and 2 GPUs (and the parts, for the prediction).
TEST_F(CliTest, CostFromARunWithTheMeasuredStepUsesItsEfficiency) {
  const std::string path = write_results("parts.json");
  cb::ResultsFile f = cb::load_results(path);
  for (int gpus : {1, 2}) {
    cb::Record r;
    r.suite = "workload";
    r.case_name = "data_parallel_step";
    r.params = {{"model_params", 1e6}, {"tokens_per_gpu", 1000}, {"bucket_bytes", 1 << 20},
                {"overlap", "on"},     {"input_bytes_per_step", 0}};
    r.gpus = gpus;
    r.ranks_per_node = gpus;
    const double step = gpus == 1 ? 0.1 : 0.125;
    r.samples_s.assign(5, step);
    r.stats = cb::summarize(r.samples_s);
    r.metrics = {{"step_s", step},           {"compute_s", 0.1},
                 {"exposed_comm_s", step - 0.1}, {"input_wait_s", 0.0},
                 {"utilization", 0.1 / step},   {"tokens_per_s", gpus * 1000 / step}};
    r.extra = {{"gradient_bytes", 4e6}, {"largest_loss", "exposed_comm"}};
    f.records.push_back(r);
  }
  cb::write_results_atomic(f, file("step.json"));
  auto r = run("cost --from " + file("step.json") + " --gpu-hours 4000 --price 2.5 --gpus 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["efficiency"].get<double>(), 0.8, 1e-12);
  EXPECT_EQ(j["measured_step"]["efficiency_from"], "measured");
  EXPECT_NEAR(j["cost"].get<double>(), 12500, 1e-6);
  // Beyond the measured counts, within the node (16 GPUs measured on one): the calibrated
  // prediction, said to be one, and what it rests on.
  r = run("cost --from " + file("step.json") + " --gpu-hours 4000 --price 2.5 --gpus 16");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("calibrated"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1.0 M parameters"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rests on: step: calibrated by the step measured up to 2 GPUs"),
            std::string::npos)
      << r.out;
  // Across nodes nothing was measured: declined, naming the run that would answer and the flag
  // that assumes a link.
  r = run("cost --from " + file("step.json") + " --gpu-hours 4000 --price 2.5 --gpus 64");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("not priced on 64 GPUs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("two nodes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--plan-link RATE"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // With an assumed link it prices, and says on what.
  r = run("cost --from " + file("step.json") +
          " --gpu-hours 4000 --price 2.5 --gpus 64 --plan-link 100gbit --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto assumed = nlohmann::json::parse(r.out);
  EXPECT_EQ(assumed["rests_on"]["gpus"], 64);
  bool named = false;
  for (const auto& part : assumed["rests_on"]["parts"]) {
    named = named ||
            (part["assumed"].get<bool>() &&
             part["basis"].get<std::string>().find("--plan-link 100gbit") != std::string::npos);
  }
  EXPECT_TRUE(named) << assumed.dump();
  // Without --from there is nothing to assume a link for.
  r = run("cost --gpu-hours 4000 --price 2.5 --gpus 64 --efficiency 0.5 --plan-link 100gbit");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--plan-link: applies with --from only"), std::string::npos) << r.err;
  r = run("cost --from " + file("step.json") +
          " --gpu-hours 4000 --price 2.5 --gpus 64 --plan-link fast");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--plan-link"), std::string::npos) << r.err;
  // A flag of another workload's is refused while the measured one is priced.
  r = run("cost --from " + file("step.json") + " --gpu-hours 4000 --price 2.5 --gpus 2 --overlap 0.5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--overlap"), std::string::npos) << r.err;
}

} // namespace
