// Runs `clusterbench goodput` as a user would: the hand-computed cases of docs/REFERENCE.md, the
// verdict of a job that cannot make progress, and one line with exit 2 for every bad flag.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

namespace {

using cb::testing::contains;
using cb::testing::line_count;
using cb::testing::run_clusterbench;

nlohmann::json goodput_json(const std::string& args) {
  const auto result = run_clusterbench("goodput " + args + " --json");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return nlohmann::json::parse(result.out);
}

struct HandCase {
  const char* args;
  double mtbf_s, interval_s, goodput, checkpoints, rework, restarts;
};

// Computed with mpmath from tau* = M (1 + W0(-e^{-(1 + C/M)})), independently of the C++ code.
const HandCase kHandCases[] = {
    {"--gpus 1024 --checkpoint-s 41 --restart-s 360", 178161.336516, 3794.917865, 0.97672394,
     0.01055245, 0.01070501, 0.00201860},
    {"--gpus 16384 --checkpoint-s 60 --restart-s 600", 11135.083532, 1116.296368, 0.85255078,
     0.04582389, 0.04916758, 0.05245774},
    {"--gpus 8 --checkpoint-s 30 --restart-s 300", 22804651.073986, 36970.259049, 0.99836569,
     0.00081014, 0.00081101, 0.00001316},
    {"--gpus 512 --gpu-mtbf-hours 5000 --checkpoint-s 120 --restart-s 900", 35156.25, 2825.294433,
     0.89639218, 0.03807287, 0.04025986, 0.02527510},
};

} // namespace

TEST(GoodputCli, AgreesWithHandComputedCases) {
  for (const auto& c : kHandCases) {
    const auto json = goodput_json(c.args);
    EXPECT_NEAR(json["mtbf_s"].get<double>(), c.mtbf_s, 1e-5) << c.args;
    EXPECT_NEAR(json["interval_s"].get<double>(), c.interval_s, 1e-5) << c.args;
    EXPECT_NEAR(json["goodput"].get<double>(), c.goodput, 1e-8) << c.args;
    EXPECT_NEAR(json["lost"]["checkpoints"].get<double>(), c.checkpoints, 1e-8) << c.args;
    EXPECT_NEAR(json["lost"]["rework"].get<double>(), c.rework, 1e-8) << c.args;
    EXPECT_NEAR(json["lost"]["restarts"].get<double>(), c.restarts, 1e-8) << c.args;
    EXPECT_TRUE(json["progress"].get<bool>());
  }
}

TEST(GoodputCli, PrintsOneLine) {
  const auto result = run_clusterbench("goodput --gpus 1024 --checkpoint-s 41 --restart-s 360");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "on 1024 GPUs: a failure every 49h 29m 21s (one per 50677 GPU-hours); a "
                        "checkpoint every 1h 03m 15s of work blocking 41s; restart 6m 00s: 97.7 % "
                        "goodput (lost to checkpoints 1.1 %, rework 1.1 %, restarts 0.2 %)\n");
}

// A checkpoint longer than the job's MTBF is a verdict beside the model's small positive figure,
// never a negative goodput.
TEST(GoodputCli, SaysWhenTheJobCannotMakeUsefulProgress) {
  const auto result = run_clusterbench(
      "goodput --gpus 16384 --gpu-mtbf-hours 1000 --checkpoint-s 300 --restart-s 1800");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "the job cannot make useful progress: a checkpoint blocks "
                                   "5m 00s, as long as the time between failures or longer; at "
                                   "best a checkpoint every 3m 17s"))
      << result.out;
  const auto json = goodput_json("--gpus 16384 --gpu-mtbf-hours 1000 --checkpoint-s 300 "
                                 "--restart-s 1800");
  EXPECT_FALSE(json["progress"].get<bool>());
  EXPECT_NEAR(json["goodput"].get<double>(), 2.8858751e-05, 1e-12);
  EXPECT_NEAR(json["interval_s"].get<double>(), 196.823135, 1e-5);
}

TEST(GoodputCli, RefusesBadInputInOneLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"--gpus 8 --gpu-mtbf-hours 0 --checkpoint-s 10 --restart-s 10", "--gpu-mtbf-hours: "},
      {"--gpus 8 --gpu-mtbf-hours -5 --checkpoint-s 10 --restart-s 10", "--gpu-mtbf-hours: "},
      {"--gpus 8 --gpu-mtbf-hours nan --checkpoint-s 10 --restart-s 10", "--gpu-mtbf-hours: "},
      {"--gpus 8 --gpu-mtbf-hours inf --checkpoint-s 10 --restart-s 10", "--gpu-mtbf-hours: "},
      {"--gpus 8 --gpu-mtbf-hours 1e300 --checkpoint-s 10 --restart-s 10", "--gpu-mtbf-hours: "},
      {"--gpus 8 --checkpoint-s 0 --restart-s 10", "--checkpoint-s: "},
      {"--gpus 8 --checkpoint-s -1 --restart-s 10", "--checkpoint-s: "},
      {"--gpus 8 --checkpoint-s 1e9 --restart-s 10", "--checkpoint-s: "},
      {"--gpus 8 --checkpoint-s 10 --restart-s 0", "--restart-s: "},
      {"--gpus 8 --checkpoint-s 10 --restart-s infinity", "--restart-s: "},
      {"--gpus 8 --checkpoint-s 10 --restart-s 1e7", "--restart-s: "},
      {"--gpus 0 --checkpoint-s 10 --restart-s 10", "--gpus: "},
      {"--gpus 1.5 --checkpoint-s 10 --restart-s 10", "--gpus: "},
      {"--checkpoint-s 10 --restart-s 10", "--gpus: required"},
      {"--gpus 8 --restart-s 10", "--checkpoint-s: required"},
      {"--gpus 8 --checkpoint-s 10", "--restart-s: required"},
  };
  for (const auto& [args, message] : cases) {
    const auto result = run_clusterbench(std::string("goodput ") + args);
    EXPECT_EQ(result.exit_code, 2) << args;
    EXPECT_TRUE(contains(result.err, message)) << args << ": " << result.err;
    EXPECT_EQ(line_count(result.err), 1) << args;
    EXPECT_TRUE(result.out.empty()) << args;
  }
}
