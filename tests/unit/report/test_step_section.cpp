#include <gtest/gtest.h>

#include "report/markdown_renderer.hpp"
#include "report/report_builder.hpp"
#include "report/report_data.hpp"
#include "report/report_json.hpp"
#include "report_test_data.hpp"

using namespace cb;
using namespace cb::report;
using cb::report::test::make_record;

namespace {

Record step(int gpus, double step_s, double compute, double exposed, double wait,
            const std::string& loss) {
  Record r = make_record("workload", "data_parallel_step",
                         {{"model_params", 1e6},
                          {"tokens_per_gpu", 1000},
                          {"bucket_bytes", 1 << 20},
                          {"overlap", "on"},
                          {"input_bytes_per_step", 1 << 20}},
                         gpus,
                         {{"step_s", step_s},
                          {"compute_s", compute},
                          {"exposed_comm_s", exposed},
                          {"input_wait_s", wait},
                          {"utilization", compute / step_s},
                          {"tokens_per_s", gpus * 1000 / step_s}});
  r.extra = {{"gradient_bytes", 4e6}, {"largest_loss", loss}};
  return r;
}

std::string markdown(const ResultsFile& f, const ReportOptions& options = {}) {
  ReportOptions o = options;
  o.step = default_training_step();
  return render_markdown(build_report_document(build_report_data(f, "r.json", o), PlotSet{}));
}

TEST(StepSection, TheHeadlineSaysTheUsefulWorkAndWhenInputWaitIsTheLargestLoss) {
  ResultsFile f;
  f.records.push_back(step(1, 0.1, 0.1, 0, 0, "none"));
  f.records.push_back(step(2, 0.25, 0.1, 0.01, 0.14, "input_wait"));
  const std::string md = markdown(f);
  EXPECT_NE(md.find("on 2 GPUs this cluster did 40.0 % useful work"), std::string::npos) << md;
  EXPECT_NE(md.find("Input wait is the largest loss"), std::string::npos) << md;
  // No parts to predict from: the report says so and prices nothing beyond the measured counts.
  EXPECT_NE(md.find("beyond the 2 GPUs measured nothing can be predicted"), std::string::npos)
      << md;
  EXPECT_NE(md.find("Training step: measured against predicted"), std::string::npos);
  // Priced workload named.
  EXPECT_NE(md.find("Priced workload: 1.0 M parameters"), std::string::npos) << md;
}

TEST(StepSection, TheWorkedExampleAtAMeasuredCount) {
  ResultsFile f;
  f.records.push_back(step(1, 0.1, 0.1, 0, 0, "none"));
  f.records.push_back(step(2, 0.125, 0.1, 0.025, 0, "exposed_comm"));
  ReportOptions o;
  o.outlook_gpus = {2};
  const std::string md = markdown(f, o);
  // E(2) = 0.8: 4,000 GPU-hours on 2 GPUs take 4000 / 1.6 = 2500 hours and cost $12,500 at $2.50.
  EXPECT_NE(md.find("a 4,000 GPU-hour job on 2 GPUs at 80.0 % efficiency would take 2500 hours "
                    "and cost $12,500.00 at $2.50/GPU-hour, 25.0 % over the ideal $10,000.00 "
                    "(efficiency measured)"),
            std::string::npos)
      << md;
  ReportOptions given = o;
  given.gpu_hours = 100;
  given.price = 4;
  const auto data = build_report_data(f, "r.json", given);
  const auto j = report_to_json(data, PlotSet{});
  const auto& priced = j["headline"]["training_step"]["priced"];
  EXPECT_EQ(priced["example_defaults"], false);
  EXPECT_NEAR(priced["cost"]["cost"].get<double>(), 100 * 4 / 0.8, 1e-9);
}

TEST(StepSection, TheSlowestGpuOfTheStepIsNamedByItsOwnGemmRate) {
  // 4 ranks on 2 hosts; host n2 device 1 computes its share at 60 % of the others' rate (every
  // rank does the same work, so the others wait for it).
  ResultsFile f;
  f.records.push_back(step(1, 0.1, 0.1, 0, 0, "none"));
  Record four = step(4, 0.17, 0.1, 0.07, 0, "exposed_comm");
  four.per_rank = nlohmann::json::array();
  for (int r = 0; r < 4; ++r) {
    four.per_rank.push_back({{"rank", r},
                             {"host", r < 2 ? "n1" : "n2"},
                             {"device", r % 2},
                             {"compute_s", r == 3 ? 0.1667 : 0.1},
                             {"gflops", r == 3 ? 36.0 : 60.0}});
  }
  f.records.push_back(four);
  const std::string md = markdown(f);
  EXPECT_NE(md.find("**Slowest GPU:** rank 3 (n2 device 1) runs at 60.0 % of its peers' median "
                    "(workload/data_parallel_step on 4 GPUs)"),
            std::string::npos)
      << md;
  // Equal GPUs: nobody named.
  for (auto& entry : f.records[1].per_rank)
    entry["gflops"] = 60.0;
  EXPECT_EQ(markdown(f).find("Slowest GPU"), std::string::npos);
}

TEST(StepSection, TooFewCountsEndWithOneLineNotANotePerCurve) {
  ResultsFile f;
  for (int n : {1, 2}) {
    f.records.push_back(
        make_record("compute", "triad", {{"bytes", 1 << 26}}, n, {{"gbps", 10.0 * n}}));
    f.records.push_back(
        make_record("compute", "copy", {{"bytes", 1 << 26}}, n, {{"gbps", 9.0 * n}}));
  }
  const std::string md = markdown(f);
  EXPECT_EQ(md.find("**Note:** USL: needs at least"), std::string::npos) << md;
  EXPECT_EQ(md.find("**Note:** Amdahl: needs at least"), std::string::npos) << md;
  EXPECT_NE(md.find("**Not fitted:** USL/Amdahl not fitted for 2 curves: 2 GPU counts, need 3; "
                    "their efficiency is the measured one only."),
            std::string::npos)
      << md;
}

// The parts the model prices a step from: GEMM rate (60 GFLOP/s: 6e9 FLOP of 1e6 parameters x
// 1000 tokens in 100 ms) and all_reduce records at 2, 4 and 8 GPUs (alpha 10 us, 5 GB/s).
void add_parts(ResultsFile& f) {
  f.records.push_back(make_record("compute", "gemm",
                                  {{"dtype", "float"}, {"m", 1024}, {"n", 1024}, {"k", 1024}}, 1,
                                  {{"gflops", 60.0}}));
  for (int p : {2, 4, 8}) {
    for (double bytes = 1024; bytes <= 64.0 * 1024 * 1024; bytes *= 8)
      f.records.push_back(cb::report::test::all_reduce_record(bytes, p, 10e-6, 1.0 / 5e9));
  }
}

TEST(StepSection, AMeasuredStepFarFromThePredictionSaysWhichTermAndExtrapolatesCalibrated) {
  ResultsFile f;
  add_parts(f);
  f.records.push_back(step(1, 0.1, 0.1, 0, 0, "none"));
  // 100 ms of exposed all-reduce where 4 MB at 5 GB/s predicts under a millisecond.
  f.records.push_back(step(2, 0.2, 0.1, 0.1, 0, "exposed_comm"));
  for (auto& r : f.records) {
    if (r.suite == "workload")
      r.metrics["input_bytes_per_step"] = 0;
  }
  ReportOptions o;
  o.outlook_gpus = {2, 8};
  const std::string md = markdown(f, o);
  EXPECT_NE(md.find("Off by more than 15 % at 2 GPUs:** exposed all-reduce: 100.0 ms measured "
                    "against 0.0 ms predicted"),
            std::string::npos)
      << md;
  // Calibrated beyond: the 100 ms held, so 8 GPUs stay at the measured 200 ms step.
  EXPECT_NE(md.find("|    8 |             - | 200 ms (extrapolated) |"), std::string::npos) << md;
  EXPECT_NE(md.find("(extrapolated)"), std::string::npos) << md;
  EXPECT_NE(md.find("**Extrapolated:** beyond 2 GPUs the prediction is calibrated by the "
                    "measured points"),
            std::string::npos)
      << md;
  const auto j = report_to_json(build_report_data(f, "r.json", [&] {
                                  ReportOptions x = o;
                                  x.step = default_training_step();
                                  return x;
                                }()),
                                PlotSet{});
  const auto& step_json = j["headline"]["training_step"];
  EXPECT_NEAR(step_json["largest_error"].get<double>(), -0.5, 1e-9);
  EXPECT_DOUBLE_EQ(step_json["calibration"]["exposed_hold_s"].get<double>(), 0.1);
  bool extrapolated = false;
  for (const auto& row : step_json["rows"]) {
    if (row["gpus"] == 2) {
      EXPECT_NEAR(row["error"].get<double>(), -0.5, 1e-9);
    }
    extrapolated = extrapolated || row["extrapolated"].get<bool>();
  }
  EXPECT_TRUE(extrapolated);
}

} // namespace

namespace {

// The quick start's shape: the step at 1 and 2 GPUs and the parts on one node of 2.
ResultsFile one_node_of_two() {
  ResultsFile f;
  f.records.push_back(step(1, 0.1, 0.1, 0, 0, "none"));
  f.records.push_back(step(2, 0.125, 0.1, 0.025, 0, "exposed_comm"));
  f.records.push_back(make_record("compute", "gemm",
                                  {{"dtype", "float"}, {"m", 1024}, {"n", 1024}, {"k", 1024}}, 1,
                                  {{"gflops", 60.0}}));
  for (double bytes = 1024; bytes <= 64.0 * 1024 * 1024; bytes *= 8)
    f.records.push_back(cb::report::test::all_reduce_record(bytes, 2, 20e-6, 1 / 5e9, 2));
  return f;
}

} // namespace

// Beyond one node with nothing measured across nodes the headline declines to price, naming the
// run that would answer; with --plan-link it prices and names the assumed link in the sentence.
TEST(StepSection, AcrossNodesTheHeadlinePricesOnAnAssumedLinkOrDeclines) {
  const ResultsFile f = one_node_of_two();
  std::string md = markdown(f);
  EXPECT_NE(md.find("**What it costs:** not priced on 64 GPUs: nothing was measured across "
                    "nodes (at most 2 GPUs, on one node)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("--plan-link RATE"), std::string::npos) << md;
  EXPECT_EQ(md.find("would take"), std::string::npos) << md;
  EXPECT_NE(md.find("### What the prices rest on"), std::string::npos) << md;

  ReportOptions o;
  o.step = default_training_step();
  o.step.plan_link = {"100gbit", 12.5e9};
  const auto data = build_report_data(f, "r.json", o);
  md = render_markdown(build_report_document(data, PlotSet{}));
  EXPECT_NE(md.find("a 4,000 GPU-hour job on 64 GPUs"), std::string::npos) << md;
  EXPECT_NE(md.find("Between nodes the all-reduce is priced on the assumed link --plan-link "
                    "100gbit, not a measurement"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("**Measured step on 64 GPUs:** Step: calibrated by the step measured up to 2 "
                    "GPUs"),
            std::string::npos)
      << md;
  const auto j = report_to_json(data, PlotSet{});
  const auto& priced = j["headline"]["training_step"]["priced"];
  EXPECT_TRUE(priced["declined"].is_null());
  EXPECT_EQ(priced["rests_on"]["gpus"], 64);
}

// The predicted step of a workload the user names: the counts across nodes are declined the same
// way, those within the node priced with what they rest on.
TEST(StepSection, ThePredictedStepDeclinesAcrossNodesToo) {
  ResultsFile f = one_node_of_two();
  f.records.erase(f.records.begin(), f.records.begin() + 2); // no measured step
  ReportOptions o;
  o.step = default_training_step();
  o.step.model_params = 1e6;
  o.step.tokens_per_gpu = 1000;
  o.step.bytes_per_step = 0;
  o.step_given = true;
  o.outlook_gpus = {2, 64};
  const auto data = build_report_data(f, "r.json", o);
  const std::string md = render_markdown(build_report_document(data, PlotSet{}));
  EXPECT_NE(md.find("**Predicted training step on 64 GPUs:** not priced on 64 GPUs"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("**Predicted step on 2 GPUs:** Compute: the GEMM rate of compute/gemm"),
            std::string::npos)
      << md;
  const auto j = report_to_json(data, PlotSet{});
  EXPECT_EQ(j["headline"]["prediction"]["declined"][0]["gpus"], 64);
  EXPECT_EQ(j["headline"]["prediction"]["at"][0]["rests_on"]["gpus"], 2);
}
