// Useful work = scaling efficiency x goodput through the real binary: `report` and `cost --from`
// on a run with checkpoint and communicator start-up records, the one line a run without them
// gains, and bad figures and flags refused with exit 2 naming the file, field or flag.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

using cb::testing::contains;
using cb::testing::line_count;
using cb::testing::run_clusterbench;

std::string fixture() {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/report/h200_cluster.json";
}

class UsefulWorkCli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cb-useful-work-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The H200 fixture with saves of 30 + N s, restores of 15 + N s and a communicator's first
  // creation of 0.5 + 0.01 N s at 1..8 GPUs; `edit` may spoil one record.
  std::string with_checkpoints(const std::function<void(nlohmann::json&)>& edit = {}) const {
    nlohmann::json doc = nlohmann::json::parse(std::ifstream(fixture()));
    nlohmann::json base;
    for (const auto& r : doc["records"]) {
      if (r["case"] == "seq_read" && r["gpus"] == 1)
        base = r;
    }
    for (int n : {1, 2, 4, 8}) {
      for (const char* name : {"checkpoint_write", "checkpoint_read", "communicator_init"}) {
        nlohmann::json r = base;
        r["case"] = name;
        r["gpus"] = n;
        r["ranks_per_node"] = n;
        r["per_rank"] = nlohmann::json::array();
        const std::string c = name;
        const double s = c == "checkpoint_write"  ? 30.0 + n
                         : c == "checkpoint_read" ? 15.0 + n
                                                  : 0.05 + 0.001 * n;
        r["suite"] = c == "communicator_init" ? "collectives" : "storage";
        r["params"] = c == "communicator_init"
                          ? nlohmann::json::object()
                          : nlohmann::json{{"checkpoint_bytes", 98e9}, {"block_bytes", 1 << 20}};
        r["samples_s"] = {s, s, s};
        r["stats"] = {{"count", 3},    {"median_s", s}, {"mean_s", s}, {"min_s", s}, {"max_s", s},
                      {"stddev_s", 0}, {"cv", 0},       {"p05_s", s},  {"p95_s", s}};
        r["metrics"] = {{"time_us", s * 1e6}};
        if (c == "communicator_init")
          r["metrics"]["cold_time_us"] = (0.5 + 0.01 * n) * 1e6;
        doc["records"].push_back(r);
      }
    }
    if (edit)
      edit(doc);
    const std::string path = (dir_ / "ckpt.json").string();
    std::ofstream(path) << doc.dump();
    return path;
  }

  fs::path dir_;
};

TEST_F(UsefulWorkCli, ReportMultipliesEfficiencyByGoodputAndSaysWhatIsExtrapolated) {
  const auto r = run_clusterbench("report " + with_checkpoints());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "**Useful work on 64 GPUs:**")) << r.out;
  EXPECT_TRUE(contains(r.out, "**Useful work on 1024 GPUs:**")) << r.out;
  EXPECT_TRUE(contains(r.out, "% useful work")) << r.out;
  EXPECT_TRUE(contains(r.out, "### Goodput per GPU count")) << r.out;
  EXPECT_TRUE(contains(r.out, "extrapolated")) << r.out;
  EXPECT_TRUE(contains(r.out, "measured at 8 GPUs, held")) << r.out;
  EXPECT_TRUE(contains(r.out, "first (cold) creation")) << r.out;
  EXPECT_FALSE(contains(r.out, "**Goodput:** not measured")) << r.out;

  const auto j = run_clusterbench("report --json " + with_checkpoints());
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  const auto& at = doc["headline"]["goodput"]["at"];
  ASSERT_EQ(at.size(), 6u); // 1, 2, 4, 8 measured; 64 and 1024 priced
  int priced = 0;
  for (const auto& g : at) {
    EXPECT_GT(g["goodput"].get<double>(), 0.5);
    EXPECT_LT(g["goodput"].get<double>(), 1.0);
    if (g.contains("useful_work")) {
      ++priced;
      EXPECT_NEAR(g["useful_work"].get<double>(),
                  g["efficiency"].get<double>() * g["goodput"].get<double>(), 1e-12);
      EXPECT_TRUE(g["extrapolated"].get<bool>());
    }
  }
  EXPECT_EQ(priced, 2);
  EXPECT_TRUE(doc["headline"]["goodput"]["not_measured"].is_null());
}

TEST_F(UsefulWorkCli, WithNothingPricedTheHeadlineGivesGoodputAtTheMostGpusMeasured) {
  const auto only = with_checkpoints([](nlohmann::json& doc) {
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& r : doc["records"]) {
      if (r["case"] != "gemm" && r["case"] != "all_reduce")
        kept.push_back(r);
    }
    doc["records"] = kept;
  });
  const auto r = run_clusterbench("report " + only);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "- **Goodput:** on 8 GPUs: a failure every")) << r.out;
  EXPECT_TRUE(contains(r.out, "no scaling efficiency to multiply it by")) << r.out;
  EXPECT_TRUE(contains(r.out, "### Goodput per GPU count")) << r.out;
  EXPECT_FALSE(contains(r.out, "Useful work on")) << r.out;
}

TEST_F(UsefulWorkCli, WithoutCheckpointRecordsTheReportGainsOneLineNamingTheRun) {
  const auto r = run_clusterbench("report " + fixture());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line =
      "- **Goodput:** not measured: the results have no usable storage/checkpoint_write or "
      "storage/checkpoint_read records (run --suite storage --cases "
      "checkpoint_write,checkpoint_read, and --suite collectives --cases communicator_init for "
      "the restart's start-up).";
  EXPECT_TRUE(contains(r.out, line)) << r.out;
  EXPECT_FALSE(contains(r.out, "Goodput per GPU count"));
  EXPECT_FALSE(contains(r.out, "useful work"));
}

TEST_F(UsefulWorkCli, CostFromGivesEfficiencyGoodputAndTheirProduct) {
  const std::string args = "cost --gpu-hours 4000 --price 2.5 --gpus 64 --model-params 7e9 "
                           "--tokens-per-gpu 16384 --from ";
  const auto plain = run_clusterbench(args + fixture());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const auto with = run_clusterbench(args + with_checkpoints());
  ASSERT_EQ(with.exit_code, 0) << with.err;
  // The same text as without checkpoints, then the three goodput lines instead of one.
  EXPECT_EQ(line_count(with.out), line_count(plain.out) + 2) << with.out;
  EXPECT_TRUE(contains(plain.out, "goodput: not measured")) << plain.out;
  EXPECT_TRUE(contains(with.out, "on 64 GPUs: ")) << with.out;
  EXPECT_TRUE(contains(with.out, "goodput rests on: checkpoint: storage/checkpoint_write"));
  EXPECT_TRUE(contains(with.out, "% useful work (efficiency x goodput): ")) << with.out;

  const auto j = run_clusterbench(args + with_checkpoints() + " --json --restart-overhead 300");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  const double e = doc["efficiency"].get<double>();
  const double g = doc["goodput"]["goodput"].get<double>();
  EXPECT_NEAR(doc["goodput"]["useful_work"].get<double>(), e * g, 1e-12);
  EXPECT_NEAR(doc["useful_work_cost"]["efficiency"].get<double>(), e * g, 1e-12);
  EXPECT_NEAR(doc["useful_work_cost"]["cost"].get<double>(), 4000 * 2.5 / (e * g), 1e-6);
  // R = the start-up fitted to 64 GPUs + the restore held at 8 GPUs' + the overhead given.
  EXPECT_NEAR(doc["goodput"]["restart_s"].get<double>(), 0.5 + 0.01 * 64 + 23 + 300, 1e-6);
  EXPECT_NEAR(doc["goodput"]["checkpoint_s"].get<double>(), 38, 1e-9);
  // Asynchronous checkpoints with no snapshot records: which run would answer.
  const auto async = run_clusterbench(args + with_checkpoints() + " --checkpoint-mode async");
  ASSERT_EQ(async.exit_code, 0) << async.err;
  EXPECT_TRUE(contains(async.out, "--cases checkpoint_stage")) << async.out;
}

TEST_F(UsefulWorkCli, BadFiguresAndFlagsExitTwoNamingThem) {
  const auto negative = with_checkpoints([](nlohmann::json& doc) {
    for (auto& r : doc["records"]) {
      if (r["case"] == "checkpoint_read" && r["gpus"] == 4)
        r["metrics"]["time_us"] = -3;
    }
  });
  for (const std::string& cmd :
       {"report " + negative, "cost --gpu-hours 1 --price 1 --gpus 8 --model-params 7e9 "
                              "--tokens-per-gpu 16384 --from " +
                                  negative}) {
    const auto r = run_clusterbench(cmd);
    EXPECT_EQ(r.exit_code, 2) << cmd << r.out;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_TRUE(contains(r.err, "ckpt.json")) << r.err;
    EXPECT_TRUE(contains(r.err, "time_us")) << r.err;
  }
  const auto absurd = with_checkpoints([](nlohmann::json& doc) {
    for (auto& r : doc["records"]) {
      if (r["case"] == "communicator_init" && r["gpus"] == 2)
        r["metrics"]["cold_time_us"] = 1e15;
    }
  });
  const auto a = run_clusterbench("report " + absurd);
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_TRUE(contains(a.err, "metrics.cold_time_us")) << a.err;
  const std::string good = with_checkpoints();
  for (const auto& [flags, name] : std::vector<std::pair<std::string, std::string>>{
           {"--gpu-mtbf-hours 0", "--gpu-mtbf-hours:"},
           {"--gpu-mtbf-hours 1e10", "--gpu-mtbf-hours:"},
           {"--checkpoint-mode later", "--checkpoint-mode:"},
           {"--restart-overhead -5", "--restart-overhead:"},
           {"--restart-overhead 1e6", "--restart-overhead:"}}) {
    const auto r = run_clusterbench("report " + good + " " + flags);
    EXPECT_EQ(r.exit_code, 2) << flags;
    EXPECT_TRUE(contains(r.err, name)) << flags << ": " << r.err;
  }
  const auto c = run_clusterbench("cost --gpu-hours 1 --price 1 --gpus 8 --efficiency 0.9 "
                                  "--gpu-mtbf-hours 100");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_TRUE(contains(c.err, "--gpu-mtbf-hours: applies with --from only")) << c.err;
}

} // namespace
