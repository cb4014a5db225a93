#include "report/report_options.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace cb::report {
namespace {

namespace fs = std::filesystem;

ReportCommandOptions parse(const std::vector<std::string>& argv) {
  ArgParser args("clusterbench report", "test");
  declare_report_flags(args);
  EXPECT_TRUE(args.parse(argv));
  return read_report_flags(args);
}

std::string error_of(const std::vector<std::string>& argv) {
  try {
    parse(argv);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ReportOptions, Defaults) {
  const auto o = parse({"r.json"});
  EXPECT_EQ(o.results_path, "r.json");
  EXPECT_FALSE(o.html_path || o.plots_dir || o.json);
  EXPECT_EQ(o.report.outlook_gpus, (std::vector<int>{64, 1024}));
  EXPECT_DOUBLE_EQ(o.report.step.model_params, 7e9);
  EXPECT_DOUBLE_EQ(o.report.step.tokens_per_gpu, 16384);
  EXPECT_DOUBLE_EQ(o.report.step.bytes_per_step, 65536);
  EXPECT_FALSE(o.report.step.input_required); // left out where storage was not measured
  EXPECT_EQ(o.report.step.predict_to, 1024);
  EXPECT_FALSE(o.report.gpu_hours.has_value());
}

TEST(ReportOptions, Workload) {
  const auto o = parse({"r.json", "--model-params", "70B",         "--tokens-per-gpu",
                        "8K",     "--overlap",      "0.5",         "--grad-bytes",
                        "1G",     "--at",           "16,256,4096", "--gpu-hours",
                        "4000",   "--price",        "2.5",         "--json",
                        "--html", "r.html",         "--plots",     "p"});
  EXPECT_DOUBLE_EQ(o.report.step.model_params, 70e9);
  EXPECT_DOUBLE_EQ(o.report.step.tokens_per_gpu, 8000);
  EXPECT_DOUBLE_EQ(o.report.step.bytes_per_step, 32000); // follows the tokens
  EXPECT_DOUBLE_EQ(o.report.step.overlap, 0.5);
  EXPECT_DOUBLE_EQ(*o.report.step.grad_bytes, 1024.0 * 1024 * 1024);
  EXPECT_EQ(o.report.outlook_gpus, (std::vector<int>{16, 256, 4096}));
  EXPECT_EQ(o.report.step.predict_to, 4096);
  EXPECT_DOUBLE_EQ(*o.report.gpu_hours, 4000);
  EXPECT_DOUBLE_EQ(*o.report.price, 2.5);
  EXPECT_TRUE(o.json);
  EXPECT_EQ(*o.html_path, "r.html");
  EXPECT_EQ(*o.plots_dir, "p");
  const auto given = parse({"r.json", "--bytes-per-step", "1M"}).report.step;
  EXPECT_DOUBLE_EQ(given.bytes_per_step, 1 << 20);
  EXPECT_TRUE(given.input_required);
}

TEST(ReportOptions, BytesPerStepZeroMeansNoInputReads) {
  const auto step = parse({"r.json", "--bytes-per-step", "0"}).report.step;
  EXPECT_DOUBLE_EQ(step.bytes_per_step, 0);
  EXPECT_FALSE(step.input_required);
  EXPECT_NE(error_of({"r.json", "--bytes-per-step", "-1"}).find("expected 0 (no input reads)"),
            std::string::npos);
}

TEST(ReportOptions, PredictToSetsTheHorizonAndTheHeadlineCounts) {
  auto o = parse({"r.json", "--predict-to", "256"});
  EXPECT_EQ(o.report.step.predict_to, 256);
  EXPECT_EQ(o.report.outlook_gpus, (std::vector<int>{64, 256}));
  o = parse({"r.json", "--predict-to", "2048"});
  EXPECT_EQ(o.report.outlook_gpus, (std::vector<int>{64, 2048}));
  o = parse({"r.json", "--predict-to", "32"});
  EXPECT_EQ(o.report.outlook_gpus, (std::vector<int>{32}));
  o = parse({"r.json", "--predict-to", "512", "--at", "8,128"});
  EXPECT_EQ(o.report.step.predict_to, 512);
  EXPECT_EQ(o.report.outlook_gpus, (std::vector<int>{8, 128}));
  // --at alone stretches the default horizon to reach its counts.
  o = parse({"r.json", "--at", "16"});
  EXPECT_EQ(o.report.step.predict_to, 1024);
}

TEST(ReportOptions, PredictToRefusesWhatItCannotMean) {
  EXPECT_EQ(error_of({"r.json", "--predict-to", "1024", "--at", "64,4096"}),
            "--at: 4096 GPUs lies beyond --predict-to 1024; raise --predict-to or drop it");
  EXPECT_EQ(error_of({"r.json", "--predict-to", "0"}).rfind("--predict-to:", 0), 0u);
  EXPECT_EQ(error_of({"r.json", "--predict-to", "64,128"}).rfind("--predict-to:", 0), 0u);
  EXPECT_EQ(error_of({"r.json", "--predict-to", "many"}).rfind("--predict-to:", 0), 0u);
}

TEST(ReportOptions, BadValuesNameTheFlag) {
  EXPECT_NE(error_of({"r.json", "--overlap", "2"}).find("--overlap"), std::string::npos);
  EXPECT_NE(error_of({"r.json", "--model-params", "seven"}).find("--model-params"),
            std::string::npos);
  EXPECT_NE(error_of({"r.json", "--model-params", "0"}).find("--model-params"), std::string::npos);
  EXPECT_NE(error_of({"r.json", "--at", "0"}).find("--at"), std::string::npos);
  EXPECT_NE(error_of({"r.json", "--at", "64,,1024"}).find("--at"), std::string::npos);
  EXPECT_NE(error_of({"r.json", "--price", "2"}).find("--price: needs --gpu-hours"),
            std::string::npos);
  EXPECT_NE(error_of({"r.json", "--gpu-hours", "-1"}).find("--gpu-hours"), std::string::npos);
  EXPECT_NE(error_of({"r.json", "--html", ""}).find("--html"), std::string::npos);
}

TEST(ReportOptions, ParseCount) {
  EXPECT_DOUBLE_EQ(parse_count("7e9", "--x"), 7e9);
  EXPECT_DOUBLE_EQ(parse_count("1.5T", "--x"), 1.5e12);
  EXPECT_DOUBLE_EQ(parse_count("350m", "--x"), 350e6);
  EXPECT_THROW(parse_count("", "--x"), InputError);
  EXPECT_THROW(parse_count("B", "--x"), InputError);
}

class OutputPaths : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cb-report-options-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OutputPaths, WritableFileLeavesNothingBehind) {
  EXPECT_NO_THROW(check_writable_file((dir_ / "r.html").string(), "--html"));
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(OutputPaths, UnwritableFilesNameTheFlag) {
  try {
    check_writable_file((dir_ / "missing" / "r.html").string(), "--html");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--html "), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos);
  }
  try {
    check_writable_file(dir_.string(), "--html");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos);
  }
}

TEST_F(OutputPaths, PlotFolderIsCreated) {
  const fs::path plots = dir_ / "a" / "b";
  EXPECT_NO_THROW(prepare_folder(plots.string(), "--plots"));
  EXPECT_TRUE(fs::is_directory(plots));
  const fs::path file = dir_ / "file";
  std::ofstream(file.string()) << "x";
  EXPECT_THROW(prepare_folder((file / "sub").string(), "--plots"), InputError);
}

} // namespace
} // namespace cb::report
