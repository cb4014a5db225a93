#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/measured_step.hpp"
#include "analysis_test_data.hpp"

using namespace cb;
using test::all_reduce_record;
using test::make_record;
using test::ring_time;

namespace {

constexpr double kAlpha = 10e-6;
constexpr double kBeta = 1.0 / 5e9;
// 1e6 parameters, 1000 tokens: 6e9 FLOP at 60 GFLOP/s (0.06 TFLOP/s) = 100 ms of compute.
constexpr double kParams = 1e6;
constexpr double kTokens = 1000;

Record step_record(int gpus, double step, double compute, double exposed, double input,
                   const std::string& overlap = "on") {
  nlohmann::json params = {{"model_params", kParams},
                           {"tokens_per_gpu", kTokens},
                           {"bucket_bytes", 1 << 20},
                           {"overlap", overlap},
                           {"input_bytes_per_step", 0},
                           {"layers", 4},
                           {"width", 500}};
  Record r = make_record("workload", "data_parallel_step", params, gpus,
                         {{"step_s", step},
                          {"compute_s", compute},
                          {"exposed_comm_s", exposed},
                          {"input_wait_s", input},
                          {"utilization", compute / step},
                          {"tokens_per_s", gpus * kTokens / step}});
  r.extra["gradient_bytes"] = 4 * kParams; // 4 MB: 4 buckets of 1 MiB, the last 0.85 MB
  r.extra["largest_loss"] = exposed > input ? "exposed_comm" : "input_wait";
  return r;
}

ResultsFile parts() {
  ResultsFile f;
  f.records.push_back(make_record("compute", "gemm",
                                  {{"dtype", "float"}, {"m", 1024}, {"n", 1024}, {"k", 1024}}, 1,
                                  {{"gflops", 60}}));
  for (int p : {2, 4}) {
    for (double bytes = 1024; bytes <= 64.0 * 1024 * 1024; bytes *= 8)
      f.records.push_back(all_reduce_record(bytes, p, ring_time(kAlpha, kBeta, bytes, p)));
  }
  return f;
}

TEST(MeasuredStep, TheConfigurationAtMostCountsWithEfficiencyFromOneGpu) {
  ResultsFile f;
  f.records.push_back(step_record(1, 0.1, 0.1, 0, 0));
  f.records.push_back(step_record(2, 0.125, 0.1, 0.025, 0));
  f.records.push_back(step_record(1, 0.2, 0.2, 0, 0, "off")); // another configuration, one count
  const auto w = measured_workload(f);
  ASSERT_TRUE(w);
  ASSERT_EQ(w->steps.size(), 2u);
  EXPECT_TRUE(w->overlap);
  EXPECT_DOUBLE_EQ(*w->steps[1].efficiency, 0.1 / 0.125);
  EXPECT_DOUBLE_EQ(w->gradient_bytes, 4e6);
  EXPECT_NE(w->describe().find("overlapped with backward"), std::string::npos);
  EXPECT_FALSE(measured_workload(parts()));
}

TEST(MeasuredStep, RecordsWithoutBucketsGetTheHostStepsEqualLayerBuckets) {
  // 4 MB in 4 layers of 1 MB, buckets of 1 MiB from the end: the first ends in layer 2 (ready
  // after its weight gradient, 3 of 8 backward GEMMs), then layers 1 and 0 (5/8, 7/8), and the
  // last, the 0.85 MB left over, also in layer 0.
  const BucketSchedule b = equal_layer_buckets(4e6, 1 << 20, 4, true);
  ASSERT_EQ(b.bytes.size(), 4u);
  EXPECT_DOUBLE_EQ(b.bytes[0], 1 << 20);
  EXPECT_DOUBLE_EQ(b.bytes[3], 4e6 - 3.0 * (1 << 20));
  EXPECT_EQ(b.ready_share, (std::vector<double>{3.0 / 8, 5.0 / 8, 7.0 / 8, 7.0 / 8}));
  EXPECT_DOUBLE_EQ(b.backward_share, 2.0 / 3);
  EXPECT_TRUE(b.overlap);
  const BucketSchedule one = equal_layer_buckets(4e6, 1 << 30, 4, false);
  EXPECT_EQ(one.bytes, std::vector<double>{4e6});
  EXPECT_EQ(one.ready_share, std::vector<double>{7.0 / 8});
  EXPECT_FALSE(one.overlap);

  ResultsFile f;
  f.records.push_back(step_record(1, 0.1, 0.1, 0, 0));
  const auto w = measured_workload(f);
  ASSERT_TRUE(w);
  EXPECT_FALSE(w->buckets_reported);
  EXPECT_EQ(w->buckets.ready_share, b.ready_share);
}

TEST(MeasuredStep, ErrorPerCountAndTheTermThatIsOff) {
  ResultsFile f = parts();
  // Compute as predicted (100 ms); at 2 GPUs the exposed all-reduce is 30 ms, where the fast
  // link's buckets (0.2 ms each) all end before backward does: 0 predicted.
  f.records.push_back(step_record(1, 0.1, 0.1, 0, 0));
  f.records.push_back(step_record(2, 0.13, 0.1, 0.03, 0));
  const auto v = validate_step(f, "r.json", 8);
  ASSERT_TRUE(v);
  ASSERT_TRUE(v->model) << v->model_problem;
  ASSERT_GE(v->rows.size(), 4u); // 1, 2 measured; 4, 8 extrapolated
  const StepComparison& one = v->rows[0];
  ASSERT_TRUE(one.error);
  EXPECT_NEAR(*one.error, 0.0, 1e-9);
  EXPECT_TRUE(one.off_term.empty());
  const StepComparison& two = v->rows[1];
  EXPECT_NEAR(two.predicted.all_reduce_s, 0, 1e-12);
  EXPECT_NEAR(two.predicted.step_s, 0.1, 1e-9);
  EXPECT_EQ(two.all_reduce_from, "the all_reduce records at 2 GPUs");
  EXPECT_NEAR(*two.error, 0.1 / 0.13 - 1, 1e-9);
  EXPECT_NE(two.off_term.find("exposed all-reduce"), std::string::npos) << two.off_term;
  EXPECT_NE(two.off_term.find("slower"), std::string::npos) << two.off_term;
  EXPECT_NEAR(*v->largest_error, *two.error, 1e-12);

  // Beyond: the parts hide the whole all-reduce, so the 30 ms the step exposed is held.
  EXPECT_NEAR(v->compute_scale, 1, 1e-9);
  EXPECT_NEAR(v->exposed_hold_s, 0.03, 1e-12);
  const StepComparison& four = v->rows[2];
  EXPECT_EQ(four.gpus, 4);
  EXPECT_TRUE(four.extrapolated);
  ASSERT_TRUE(four.calibrated_step_s);
  EXPECT_NEAR(*four.calibrated_step_s, 0.13, 1e-9);
  EXPECT_NEAR(*four.calibrated_efficiency, 0.1 / 0.13, 1e-9);

  std::string how;
  EXPECT_NEAR(*step_efficiency_at(*v, 2, &how), 0.1 / 0.13, 1e-12);
  EXPECT_EQ(how, "measured");
  EXPECT_NEAR(*step_efficiency_at(*v, 4, &how), *four.calibrated_efficiency, 1e-12);
  EXPECT_NE(how.find("calibrated"), std::string::npos);
  EXPECT_FALSE(step_efficiency_at(*v, 3, &how));
  const auto j = step_validation_to_json(*v);
  EXPECT_EQ(j["rows"].size(), v->rows.size());
  EXPECT_TRUE(j["rows"][1].contains("off_term"));
  EXPECT_EQ(j["buckets"]["count"], 4);
}

TEST(MeasuredStep, TheBucketsAsReportedOnTheirTimelineAtTheMeasuredAllReduce) {
  // A slow link: 2 MB takes 20 us + 2 MB / 50 MB/s = 40.02 ms on 2 GPUs (measured, at sizes
  // around it). Two buckets ready at 15 and 45 ms of a 60 ms backward: 15-55.02, 55.02-95.04:
  // 35.04 ms exposed, where "only the last bucket" would say 40.02 x (1 - 1/2) = 20.01.
  constexpr double slow = 1.0 / 5e7;
  ResultsFile g;
  g.records.push_back(parts().records.front()); // compute/gemm
  for (double bytes = 1 << 20; bytes <= 8.0 * (1 << 20); bytes *= 2)
    g.records.push_back(all_reduce_record(bytes, 2, ring_time(kAlpha, slow, bytes, 2)));
  auto with_buckets = [](Record r) {
    r.extra["bucket_sizes"] = {2e6, 2e6};
    r.extra["bucket_ready_share"] = {0.25, 0.75};
    r.metrics["backward_s"] = 0.06;
    r.extra["gradient_bytes"] = 4e6;
    return r;
  };
  g.records.push_back(with_buckets(step_record(1, 0.1, 0.1, 0, 0)));
  g.records.push_back(with_buckets(step_record(2, 0.136, 0.1, 0.036, 0)));
  const auto v = validate_step(g, "r.json", 2);
  ASSERT_TRUE(v && v->model) << (v ? v->model_problem : "");
  EXPECT_TRUE(v->workload.buckets_reported);
  EXPECT_NEAR(v->workload.buckets.backward_share, 0.6, 1e-12);
  const double each = ring_time(kAlpha, slow, 2e6, 2);
  const double exposed = 0.015 + 2 * each - 0.06;
  EXPECT_NEAR(v->rows[1].predicted.all_reduce_s, exposed, 1e-9);
  EXPECT_NEAR(v->rows[1].predicted.step_s, 0.1 + exposed, 1e-9);
  EXPECT_NEAR(v->rows[1].predicted.efficiency, 0.1 / (0.1 + exposed), 1e-9);
  EXPECT_TRUE(v->rows[1].off_term.empty()) << v->rows[1].off_term; // 0.3 % off
}

TEST(MeasuredStep, GemmsSlowerThanComputeGemmAreSaidButDoNotMakeTheError) {
  ResultsFile f = parts();
  f.records.push_back(step_record(1, 0.2, 0.2, 0, 0)); // GEMMs at half compute/gemm's rate
  const auto v = validate_step(f, "r.json", 1);
  ASSERT_TRUE(v && v->model);
  EXPECT_NEAR(*v->rows[0].error, 0, 1e-9); // the step's own compute is the prediction's
  EXPECT_NE(v->compute_note.find("the step's GEMMs ran at 30.0 GFLOP/s"), std::string::npos)
      << v->compute_note;
  EXPECT_NE(v->compute_note.find("100.0 ms"), std::string::npos) << v->compute_note;
  EXPECT_EQ(step_validation_to_json(*v)["compute_note"], v->compute_note);
}

TEST(MeasuredStep, AStepAtALowerClockThanComputeGemmSaysSo) {
  ResultsFile f = parts();
  f.records.push_back(step_record(1, 0.2, 0.2, 0, 0));
  f.records.back().extra["state_after"] = {{"sm_clock_mhz", 1485}, {"throttled", true}};
  auto gemm = std::find_if(f.records.begin(), f.records.end(),
                           [](const Record& r) { return r.case_name == "gemm"; });
  ASSERT_NE(gemm, f.records.end());
  gemm->extra["state_after"] = {{"sm_clock_mhz", 1980}};
  auto v = validate_step(f, "r.json", 1);
  ASSERT_TRUE(v && v->model);
  EXPECT_NE(v->compute_note.find("the step's GPU ended at 1485 MHz, compute/gemm's at 1980 MHz"),
            std::string::npos)
      << v->compute_note;
  // The same clock (within 5 %), or a clock that is no number, says nothing of clocks.
  for (const nlohmann::json& clock :
       {nlohmann::json(1900), nlohmann::json("fast"), nlohmann::json(-1)}) {
    f.records.back().extra["state_after"]["sm_clock_mhz"] = clock;
    v = validate_step(f, "r.json", 1);
    ASSERT_TRUE(v && v->model);
    EXPECT_NE(v->compute_note.find("the step's GEMMs ran at"), std::string::npos);
    EXPECT_EQ(v->compute_note.find("MHz"), std::string::npos) << clock << ": " << v->compute_note;
  }
}

TEST(MeasuredStep, TheGemmRateLeavesTheUpdateOut) {
  ResultsFile f = parts();
  // 0.25 s of compute, of which 0.05 s the optimizer update: the GEMMs ran 0.2 s, 30 GFLOP/s.
  Record step = step_record(1, 0.25, 0.25, 0, 0);
  step.metrics["update_s"] = 0.05;
  f.records.push_back(step);
  auto v = validate_step(f, "r.json", 1);
  ASSERT_TRUE(v && v->model);
  EXPECT_NE(v->compute_note.find("the step's GEMMs ran at 30.0 GFLOP/s"), std::string::npos)
      << v->compute_note;
  // An update that cannot be inside compute (hand-edited, or negative) is not taken.
  for (double impossible : {0.25, 0.3, -0.05}) {
    f.records.back().metrics["update_s"] = impossible;
    v = validate_step(f, "r.json", 1);
    ASSERT_TRUE(v && v->model);
    EXPECT_NE(v->compute_note.find("the step's GEMMs ran at 24.0 GFLOP/s"), std::string::npos)
        << impossible << ": " << v->compute_note;
  }
}

TEST(MeasuredStep, WithoutThePartsTheMeasuredRowsStayAndSayWhy) {
  ResultsFile f;
  f.records.push_back(step_record(1, 0.1, 0.1, 0, 0));
  f.records.push_back(step_record(2, 0.125, 0.1, 0.025, 0));
  const auto v = validate_step(f, "r.json", 64);
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->model);
  EXPECT_NE(v->model_problem.find("compute"), std::string::npos) << v->model_problem;
  EXPECT_EQ(v->rows.size(), 2u);
  std::string how;
  EXPECT_FALSE(step_efficiency_at(*v, 64, &how));
}

} // namespace
