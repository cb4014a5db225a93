#include <gtest/gtest.h>

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

TEST(MeasuredStep, BucketOverlapIsAllButTheLastBucket) {
  MeasuredWorkload w;
  w.gradient_bytes = 4e6;
  w.bucket_bytes = 1 << 20;
  w.overlap = true;
  const double last = 4e6 - 3.0 * (1 << 20);
  EXPECT_DOUBLE_EQ(bucket_overlap(w), 1 - last / 4e6);
  w.bucket_bytes = 1 << 30; // one bucket: nothing to overlap it with
  EXPECT_DOUBLE_EQ(bucket_overlap(w), 0);
  w.bucket_bytes = 1 << 20;
  w.overlap = false;
  EXPECT_DOUBLE_EQ(bucket_overlap(w), 0);
}

TEST(MeasuredStep, ErrorPerCountAndTheTermThatIsOff) {
  ResultsFile f = parts();
  // Compute as predicted (100 ms); at 2 GPUs the exposed all-reduce is 30 ms, far above the
  // few hidden-after-overlap milliseconds the parts predict.
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
  const double ar = ring_time(kAlpha, kBeta, 4e6, 2) * (1 - bucket_overlap(v->workload));
  EXPECT_NEAR(two.predicted.step_s, 0.1 + ar, 1e-9);
  EXPECT_NEAR(*two.error, (0.1 + ar) / 0.13 - 1, 1e-9);
  EXPECT_NE(two.off_term.find("exposed all-reduce"), std::string::npos) << two.off_term;
  EXPECT_NE(two.off_term.find("smaller"), std::string::npos) << two.off_term;
  EXPECT_NEAR(*v->largest_error, *two.error, 1e-12);

  // Calibrated beyond: compute x 1, exposed all-reduce x (30 ms / predicted at 2), input 0.
  EXPECT_NEAR(v->compute_scale, 1, 1e-9);
  EXPECT_NEAR(v->exposed_scale, 0.03 / ar, 1e-6);
  const StepComparison& four = v->rows[2];
  EXPECT_EQ(four.gpus, 4);
  EXPECT_TRUE(four.extrapolated);
  ASSERT_TRUE(four.calibrated_step_s);
  const double ar4 = ring_time(kAlpha, kBeta, 4e6, 4) * (1 - bucket_overlap(v->workload));
  EXPECT_NEAR(*four.calibrated_step_s, 0.1 + ar4 * (0.03 / ar), 1e-9);
  EXPECT_NEAR(*four.calibrated_efficiency, 0.1 / *four.calibrated_step_s, 1e-9);

  std::string how;
  EXPECT_NEAR(*step_efficiency_at(*v, 2, &how), 0.1 / 0.13, 1e-12);
  EXPECT_EQ(how, "measured");
  EXPECT_NEAR(*step_efficiency_at(*v, 4, &how), *four.calibrated_efficiency, 1e-12);
  EXPECT_NE(how.find("calibrated"), std::string::npos);
  EXPECT_FALSE(step_efficiency_at(*v, 3, &how));
  const auto j = step_validation_to_json(*v);
  EXPECT_EQ(j["rows"].size(), v->rows.size());
  EXPECT_TRUE(j["rows"][1].contains("off_term"));
}

TEST(MeasuredStep, SlowComputeIsTheTermOff) {
  ResultsFile f = parts();
  f.records.push_back(step_record(1, 0.2, 0.2, 0, 0)); // GEMMs at half compute/gemm's rate
  const auto v = validate_step(f, "r.json", 1);
  ASSERT_TRUE(v && v->model);
  EXPECT_NEAR(*v->rows[0].error, -0.5, 1e-9);
  EXPECT_NE(v->rows[0].off_term.find("compute: the step's GEMMs ran at 30.0 GFLOP/s"),
            std::string::npos)
      << v->rows[0].off_term;
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
