#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/prediction.hpp"
#include "analysis_test_data.hpp"
#include "core/error.hpp"

using namespace cb;
using test::all_reduce_record;
using test::make_record;
using test::ring_time;

namespace {

constexpr double kRingAlpha = 10e-6;
constexpr double kRingBeta = 1.0 / 50e9;

void add_ring(ResultsFile& f, const std::vector<int>& gpus, double alpha, double beta) {
  for (int p : gpus) {
    for (double bytes = 1024; bytes <= 256.0 * 1024 * 1024; bytes *= 8) {
      f.records.push_back(all_reduce_record(bytes, p, ring_time(alpha, beta, bytes, p)));
    }
  }
}

Record gemm(int size, const std::string& dtype, double tflops, int gpus = 1) {
  return make_record("compute", "gemm", {{"dtype", dtype}, {"m", size}, {"n", size}, {"k", size}},
                     gpus, {{"tflops", tflops}});
}

ResultsFile training_results() {
  ResultsFile f;
  f.records.push_back(gemm(4096, "bf16", 80));
  f.records.push_back(gemm(8192, "bf16", 100));
  f.records.push_back(gemm(8192, "fp16", 120)); // bf16 is what training runs in
  f.records.push_back(gemm(2048, "bf16", 300)); // not the largest size
  add_ring(f, {2, 4, 8}, kRingAlpha, kRingBeta);
  return f;
}

// 1 B parameters, 1000 tokens per GPU: 6e12 flop at 100 TFLOP/s = 60 ms of compute.
PredictionConfig config() {
  PredictionConfig c;
  c.model_params = 1e9;
  c.tokens_per_gpu = 1000;
  return c;
}

std::string input_error(const ResultsFile& f, const PredictionConfig& c) {
  try {
    build_training_step_model(f, c, "run.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(Prediction, StepTimeFromItsParts) {
  const auto model = build_training_step_model(training_results(), config(), "run.json");
  EXPECT_DOUBLE_EQ(model.gemm_tflops_per_gpu, 100);
  EXPECT_EQ(model.gpus_per_node, 8);
  EXPECT_EQ(model.largest_measured_gpus, 8);

  const auto one = predict_step(model, 1);
  EXPECT_NEAR(one.compute_s, 0.06, 1e-12);
  EXPECT_EQ(one.all_reduce_s, 0);
  EXPECT_EQ(one.input_s, 0);
  EXPECT_DOUBLE_EQ(one.efficiency, 1);
  EXPECT_EQ(one.dominant, "compute");

  // 2 GB of bf16 gradients on 8 GPUs: 2(7) 10 us + 2(7)/8 2e9 / 50e9.
  const auto eight = predict_step(model, 8);
  const double all_reduce = 14 * kRingAlpha + 14.0 / 8 * 2e9 * kRingBeta;
  EXPECT_NEAR(eight.all_reduce_s, all_reduce, all_reduce * 1e-6);
  EXPECT_NEAR(eight.step_s, 0.06 + all_reduce, 1e-6);
  EXPECT_NEAR(eight.efficiency, 0.06 / (0.06 + all_reduce), 1e-6);
  EXPECT_EQ(eight.dominant, "all_reduce");
  EXPECT_FALSE(eight.extrapolated);
  EXPECT_TRUE(predict_step(model, 16).extrapolated);
}

TEST(Prediction, OverlapAndGradientBytes) {
  PredictionConfig c = config();
  c.overlap = 0.5;
  c.grad_bytes = 4e9; // fp32 gradients
  const auto model = build_training_step_model(training_results(), c, "run.json");
  const auto four = predict_step(model, 4);
  EXPECT_NEAR(four.all_reduce_s, 0.5 * (6 * kRingAlpha + 1.5 * 4e9 * kRingBeta), 1e-9);
}

TEST(Prediction, SweepAndKnees) {
  PredictionConfig c = config();
  c.overlap = 0.5;
  const auto p = predict_training(training_results(), c, "run.json");
  ASSERT_EQ(p.steps.size(), 11u); // 1, 2, 4 ... 1024
  EXPECT_EQ(p.steps.front().gpus, 1);
  EXPECT_EQ(p.steps.back().gpus, 1024);
  // N = 2: exposed all-reduce 0.5 (20 us + 40 ms) = 20.01 ms; E = 60 / 80.01 = 0.75.
  ASSERT_TRUE(p.knee_80);
  EXPECT_EQ(*p.knee_80, 2);
  // Even at 1024 GPUs the exposed all-reduce stays near 50 ms: E ~ 0.54, never under 0.5.
  EXPECT_FALSE(p.knee_50);
  EXPECT_GT(p.steps.back().efficiency, 0.5);
  for (std::size_t i = 1; i < p.steps.size(); ++i) {
    EXPECT_LE(p.steps[i].efficiency, p.steps[i - 1].efficiency + 1e-12);
  }
  // Measured on one node only: the model says it is optimistic beyond it.
  ASSERT_FALSE(p.model.warnings.empty());
  EXPECT_NE(p.model.warnings[0].find("no inter-node"), std::string::npos);

  c.overlap = 0;
  const auto exposed = predict_training(training_results(), c, "run.json");
  ASSERT_TRUE(exposed.knee_50);
  EXPECT_EQ(*exposed.knee_50, 4); // 60 / (60 + 60.06) ms
}

TEST(Prediction, PredictToThatIsNotAPowerOfTwoIsIncluded) {
  PredictionConfig c = config();
  c.predict_to = 24;
  const auto p = predict_training(training_results(), c, "run.json");
  EXPECT_EQ(p.steps.back().gpus, 24);
  EXPECT_EQ(p.steps[p.steps.size() - 2].gpus, 16);
}

TEST(Prediction, InterNodeModelBeyondOneNode) {
  ResultsFile f = training_results();
  add_ring(f, {16, 32}, 50e-6, 1.0 / 5e9);
  const auto model = build_training_step_model(f, config(), "run.json");
  EXPECT_TRUE(model.warnings.empty());
  ASSERT_EQ(model.ring.size(), 2u);
  const double inter = ring_time(50e-6, 1.0 / 5e9, 2e9, 16);
  EXPECT_NEAR(predict_step(model, 16).all_reduce_s, inter, inter * 1e-6);
  const double intra = ring_time(kRingAlpha, kRingBeta, 2e9, 8);
  EXPECT_NEAR(predict_step(model, 8).all_reduce_s, intra, intra * 1e-6);
}

TEST(Prediction, InputReadFromStorageMeasuredAndExtrapolated) {
  ResultsFile f = training_results();
  // Per-GPU read throughput falls as readers are added: USL alpha 0.05, beta 0.002, 2 GB/s each.
  for (int n : {1, 2, 4, 8}) {
    f.records.push_back(make_record("storage", "seq_read", {{"block_bytes", 1 << 20}}, n,
                                    {{"gbps", usl_throughput(0.05, 0.002, 2.0, n)}}));
    f.records.push_back(
        make_record("storage", "seq_read", {{"block_bytes", 4096}}, n, {{"gbps", 0.1 * n}}));
  }
  PredictionConfig c = config();
  c.bytes_per_step = 1e9;
  const auto model = build_training_step_model(f, c, "run.json");
  ASSERT_TRUE(model.storage);
  EXPECT_EQ(model.storage->key.params["block_bytes"], 1 << 20); // the faster configuration
  ASSERT_TRUE(model.storage_usl && model.storage_usl->ok);
  EXPECT_NEAR(predict_step(model, 1).input_s, 0.5, 1e-9); // 1 GB at 2 GB/s
  const double at_64 = usl_throughput(0.05, 0.002, 2.0, 64) / 64;
  EXPECT_NEAR(predict_step(model, 64).input_s, 1 / at_64, 1e-4);
  EXPECT_EQ(predict_step(model, 64).dominant, "input");
}

TEST(Prediction, StorageWithTooFewPointsIsHeldAtTheNearestMeasurement) {
  ResultsFile f = training_results();
  f.records.push_back(make_record("storage", "seq_read", {}, 1, {{"gbps", 2.0}}));
  f.records.push_back(make_record("storage", "seq_read", {}, 2, {{"gbps", 3.0}}));
  PredictionConfig c = config();
  c.bytes_per_step = 3e9;
  const auto model = build_training_step_model(f, c, "run.json");
  ASSERT_FALSE(model.warnings.empty());
  EXPECT_NEAR(predict_step(model, 8).input_s, 3e9 / 1.5e9, 1e-9);
}

// The report hands the model its one analysis; the model must be the one the records give alone,
// and must read the analysis rather than the records for the ring and the storage curve.
TEST(Prediction, ModelFromTheCallersAnalysisEqualsTheModelFromTheRecords) {
  ResultsFile f = training_results();
  add_ring(f, {16, 32}, 50e-6, 1.0 / 5e9);
  for (int n : {1, 2, 4, 8}) {
    f.records.push_back(make_record("storage", "seq_read", {{"block_bytes", 1 << 20}}, n,
                                    {{"gbps", usl_throughput(0.05, 0.002, 2.0, n)}}));
  }
  PredictionConfig c = config();
  c.bytes_per_step = 1e9;
  const ScalingAnalysis analysis = analyse_scaling(f);
  const auto alone = predict_training(f, c, "run.json");
  const auto shared = predict_training(f, analysis, c, "run.json");
  ASSERT_EQ(shared.model.ring.size(), alone.model.ring.size());
  ASSERT_TRUE(shared.model.storage && alone.model.storage);
  EXPECT_EQ(shared.model.storage->key.params, alone.model.storage->key.params);
  ASSERT_EQ(shared.steps.size(), alone.steps.size());
  for (std::size_t i = 0; i < alone.steps.size(); ++i)
    EXPECT_DOUBLE_EQ(shared.steps[i].step_s, alone.steps[i].step_s) << alone.steps[i].gpus;
  EXPECT_EQ(format_prediction(shared), format_prediction(alone));

  // An analysis without the inter-node ring: the model prices from what it was handed.
  ScalingAnalysis intra_only = analysis;
  intra_only.ring_all_reduce.erase(
      std::remove_if(intra_only.ring_all_reduce.begin(), intra_only.ring_all_reduce.end(),
                     [](const RingAllReduceFit& r) { return r.tier == "inter"; }),
      intra_only.ring_all_reduce.end());
  ASSERT_LT(intra_only.ring_all_reduce.size(), analysis.ring_all_reduce.size());
  const auto model = build_training_step_model(f, intra_only, c, "run.json");
  EXPECT_EQ(model.ring.size(), intra_only.ring_all_reduce.size());
}

TEST(Prediction, GemmInGflopsOnSeveralGpus) {
  ResultsFile f;
  f.records.push_back(make_record("compute", "gemm", {{"m", 4096}, {"n", 4096}, {"k", 4096}}, 2,
                                  {{"gflops", 100000.0}}));
  add_ring(f, {2, 4}, kRingAlpha, kRingBeta);
  const auto model = build_training_step_model(f, config(), "run.json");
  EXPECT_DOUBLE_EQ(model.gemm_tflops_per_gpu, 50); // the aggregate of two GPUs, halved
}

TEST(Prediction, MissingPartsNameTheSuiteAndCase) {
  ResultsFile no_gemm;
  add_ring(no_gemm, {2, 4}, kRingAlpha, kRingBeta);
  const auto gemm_error = input_error(no_gemm, config());
  EXPECT_NE(gemm_error.find("run.json"), std::string::npos);
  EXPECT_NE(gemm_error.find("compute suite, case gemm"), std::string::npos);

  ResultsFile no_ring;
  no_ring.records.push_back(gemm(8192, "bf16", 100));
  EXPECT_NE(input_error(no_ring, config()).find("case all_reduce"), std::string::npos);

  // Input reads asked for (--bytes-per-step given) need storage records.
  PredictionConfig with_input = config();
  with_input.bytes_per_step = 1e6;
  with_input.input_required = true;
  const auto storage_error = input_error(training_results(), with_input);
  EXPECT_NE(storage_error.find("case seq_read"), std::string::npos);
  EXPECT_NE(storage_error.find("--bytes-per-step 0"), std::string::npos);
}

TEST(Prediction, UnmeasuredInputByDefaultIsLeftOutAndSaid) {
  PredictionConfig c = config();
  c.bytes_per_step = 4000; // the default, 4 bytes per token: not asked for
  const auto p = predict_training(training_results(), c, "run.json");
  EXPECT_TRUE(p.model.input_left_out);
  EXPECT_FALSE(p.model.storage);
  const auto without = predict_training(training_results(), config(), "run.json");
  ASSERT_EQ(p.steps.size(), without.steps.size());
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    EXPECT_EQ(p.steps[i].input_s, 0);
    EXPECT_DOUBLE_EQ(p.steps[i].efficiency, without.steps[i].efficiency);
  }
  const bool said = std::any_of(p.model.warnings.begin(), p.model.warnings.end(), [](auto& w) {
    return w.find("input reads not measured") != std::string::npos &&
           w.find("4000 bytes") != std::string::npos;
  });
  EXPECT_TRUE(said) << testing::PrintToString(p.model.warnings);
  EXPECT_EQ(prediction_to_json(p)["input_left_out"], true);
  EXPECT_EQ(prediction_to_json(without)["input_left_out"], false);
  // No input asked for: nothing left out, nothing to say.
  EXPECT_FALSE(without.model.input_left_out);
}

TEST(Prediction, ConfigValuesOutOfRangeNameTheFlag) {
  auto error_for = [](PredictionConfig c) {
    try {
      validate_prediction_config(c);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  PredictionConfig c = config();
  EXPECT_EQ(error_for(c), "");
  c.model_params = 0;
  EXPECT_EQ(error_for(c).rfind("--model-params", 0), 0u);
  c = config();
  c.tokens_per_gpu = -1;
  EXPECT_EQ(error_for(c).rfind("--tokens-per-gpu", 0), 0u);
  c = config();
  c.overlap = 1.5;
  EXPECT_EQ(error_for(c).rfind("--overlap", 0), 0u);
  c = config();
  c.grad_bytes = 0.0;
  EXPECT_EQ(error_for(c).rfind("--grad-bytes", 0), 0u);
  c = config();
  c.bytes_per_step = -5;
  EXPECT_EQ(error_for(c).rfind("--bytes-per-step", 0), 0u);
}

TEST(Prediction, JsonAndText) {
  const auto p = predict_training(training_results(), config(), "run.json");
  const auto j = prediction_to_json(p);
  EXPECT_EQ(j["steps"].size(), 11u);
  EXPECT_EQ(j["steps"][0]["efficiency"], 1.0);
  EXPECT_EQ(j["knee_80"], 2);
  EXPECT_EQ(j["config"]["grad_bytes"], 2e9);
  EXPECT_EQ(j["gemm_tflops_per_gpu"], 100.0);
  EXPECT_EQ(j["ring_all_reduce"].size(), 1u);
  const std::string text = format_prediction(p);
  EXPECT_NE(text.find("efficiency falls under 0.8 at 2 GPUs"), std::string::npos);
  EXPECT_NE(text.find("(extrapolated)"), std::string::npos);
}
