// Which part limits scaling first, the training-step prediction and what it costs.
#include "report/headline.hpp"

#include <gtest/gtest.h>

#include "report/report_builder.hpp"
#include "report_test_data.hpp"
#include "results/results_io.hpp"

namespace cb::report {
namespace {

using test::add_usl_curve;
using test::make_record;

// The glossary's worked example: 4000 GPU-hours at $2.50 an hour.
ReportOptions priced_options() {
  ReportOptions o = test::default_options();
  o.gpu_hours = 4000;
  o.price = 2.5;
  return o;
}

Headline headline_of(const ResultsFile& results, const ReportOptions& o = test::default_options()) {
  const ScalingAnalysis analysis = analyse_scaling(results);
  return build_headline(results, "test.json", analysis,
                        build_family_reports(results, analysis, o.outlook_gpus), o);
}

// Collectives whose aggregate follows the USL: busbw(N) = X(N) / N.
void add_collective_curve(ResultsFile& results, const std::vector<int>& gpus, double alpha,
                          double beta) {
  for (int n : gpus) {
    results.records.push_back(make_record("collectives", "all_reduce",
                                          {{"bytes", 1u << 30}, {"in_place", false}}, n,
                                          {{"busbw_gbps", test::usl(alpha, beta, 400, n) / n}}));
  }
}

TEST(Headline, AMeasuredDropLimitsFirst) {
  ResultsFile results;
  add_usl_curve(results, "compute", "triad", {{"bytes", 1u << 26}}, {1, 2, 4, 8, 16}, 0.001, 0.0);
  add_collective_curve(results, {2, 4, 8}, 0.001, 0.0);
  // E(4) = 1 / (1 + 0.3 + 0.12) = 0.70, measured.
  add_usl_curve(results, "storage", "seq_read", {{"block_bytes", 1u << 20}}, {1, 2, 4, 8, 16}, 0.1,
                0.01);
  const Headline h = headline_of(results);
  ASSERT_NE(h.limiting(), nullptr);
  EXPECT_EQ(h.limiting()->name(), "storage/seq_read");
  EXPECT_EQ(h.limiting()->limit->gpus, 4);
  EXPECT_EQ(h.limiting()->limit->from, "measured");
  EXPECT_NEAR(*h.limiting()->limit->efficiency, 1 / 1.42, 1e-9);
  EXPECT_EQ(h.parts.size(), 3u);
}

TEST(Headline, APredictedDropCountsWhenNothingMeasuredDrops) {
  ResultsFile results;
  add_usl_curve(results, "compute", "triad", {{"bytes", 1u << 26}}, {1, 2, 4, 8}, 0.0, 0.0);
  // E(N) relative to 2 GPUs = 1.03 / (1 + 0.03 (N-1)): 0.85 at 8 (measured), 0.71 at 16.
  add_collective_curve(results, {2, 4, 8}, 0.03, 0.0);
  // E(1024) = 1 / (1 + 0.0002 * 1023) = 0.83: never under 80 %.
  add_usl_curve(results, "storage", "seq_read", {{"block_bytes", 1u << 20}}, {1, 2, 4, 8}, 0.0002,
                0.0);
  const Headline h = headline_of(results);
  ASSERT_NE(h.limiting(), nullptr);
  EXPECT_EQ(h.limiting()->name(), "collectives/all_reduce");
  EXPECT_EQ(h.limiting()->limit->gpus, 16);
  EXPECT_EQ(h.limiting()->limit->from, "USL");
  EXPECT_TRUE(h.limiting()->limit->extrapolated);
  EXPECT_NEAR(*h.limiting()->efficiency_at_largest, 1.03 / 1.21, 1e-9);
  // The rest by their efficiency at 1024 GPUs: storage (0.83) before compute (1.0).
  ASSERT_EQ(h.parts.size(), 3u);
  EXPECT_EQ(h.parts[1].name(), "storage/seq_read");
  EXPECT_EQ(h.parts[2].name(), "compute/triad");
  EXPECT_FALSE(h.parts[1].limit.has_value());
  EXPECT_NEAR(*h.parts[1].outlook[1].efficiency, 1 / (1 + 0.0002 * 1023), 1e-3);
}

TEST(Headline, NoPartLimitsWhenAllScale) {
  ResultsFile results;
  add_usl_curve(results, "compute", "triad", {{"bytes", 1u << 26}}, {1, 2, 4, 8}, 0.0, 0.0);
  add_usl_curve(results, "storage", "seq_read", {{"block_bytes", 1u << 20}}, {1, 2, 4, 8}, 0.0001,
                0.0);
  const Headline h = headline_of(results);
  EXPECT_EQ(h.limiting(), nullptr);
  ASSERT_EQ(h.parts.size(), 2u);
  EXPECT_EQ(h.parts[0].name(), "storage/seq_read"); // the lowest at 1024 GPUs first
}

TEST(Headline, TiesGoToTheLowerEfficiency) {
  ResultsFile results;
  add_usl_curve(results, "compute", "copy", {{"bytes", 1u << 26}}, {1, 2, 4}, 0.3, 0.0);
  add_usl_curve(results, "storage", "seq_read", {{"block_bytes", 1u << 20}}, {1, 2, 4}, 0.4, 0.0);
  const Headline h = headline_of(results);
  ASSERT_NE(h.limiting(), nullptr);
  EXPECT_EQ(h.limiting()->limit->gpus, 2);
  EXPECT_EQ(h.limiting()->name(), "storage/seq_read");
  EXPECT_EQ(h.parts[1].limit->gpus, 2);
}

TEST(Headline, APartSpeaksThroughItsBestConfiguration) {
  ResultsFile results;
  add_usl_curve(results, "storage", "seq_read", {{"block_bytes", 4096}}, {1, 2, 4}, 0.5, 0.0, 0.2);
  add_usl_curve(results, "storage", "seq_read", {{"block_bytes", 1u << 20}}, {1, 2, 4}, 0.0, 0.0,
                6);
  const Headline h = headline_of(results);
  ASSERT_EQ(h.parts.size(), 1u);
  EXPECT_EQ(h.parts[0].label, "block_bytes=1M");
  EXPECT_EQ(h.limiting(), nullptr);
}

TEST(Headline, NamesASlowGpu) {
  ResultsFile results;
  for (int n : {1, 2, 4}) {
    Record r = make_record("compute", "gemm", {{"m", 8192}}, n, {{"tflops", 780.0 * n}});
    r.per_rank = nlohmann::json::array();
    for (int rank = 0; rank < n; ++rank) {
      const double tflops = rank == 3 ? 700.0 : 780.0 + rank; // rank 3 runs at 90 %
      r.per_rank.push_back({{"rank", rank}, {"host", "n1"}, {"device", rank}, {"tflops", tflops}});
    }
    results.records.push_back(r);
  }
  const Headline h = headline_of(results);
  ASSERT_EQ(h.stragglers.size(), 1u);
  EXPECT_EQ(h.stragglers[0].rank, "rank 3 (n1 device 3)");
  EXPECT_NEAR(h.stragglers[0].share, 700.0 / 780.5, 1e-12);
  EXPECT_EQ(h.stragglers[0].parts, std::vector<std::string>{"compute/gemm on 4 GPUs"});

  // Within 5 % of the median is noise, not a straggler.
  results.records.back().per_rank[3]["tflops"] = 750.0;
  EXPECT_TRUE(headline_of(results).stragglers.empty());
}

// The same figures in a collective: each rank's own busbw includes its wait for the slowest, so
// the lowest is a rank that waited (the victim), and the headline names nobody from it.
TEST(Headline, ACollectivesLowestOwnFigureIsNoSlowGpu) {
  ResultsFile results;
  for (int n : {1, 2, 4}) {
    Record r =
        make_record("collectives", "all_reduce", {{"bytes", 1 << 20}}, n, {{"busbw_gbps", 100.0}});
    r.per_rank = nlohmann::json::array();
    for (int rank = 0; rank < n; ++rank) {
      const double busbw = rank == 3 ? 66.0 : 100.0 + rank; // rank 3 waited the longest
      r.per_rank.push_back(
          {{"rank", rank}, {"host", "n1"}, {"device", rank}, {"busbw_gbps", busbw}});
    }
    results.records.push_back(r);
  }
  EXPECT_TRUE(headline_of(results).stragglers.empty());
}

TEST(Headline, NothingToSayWithoutTwoGpuCounts) {
  ResultsFile results;
  results.records.push_back(make_record("compute", "copy", {{"bytes", 1}}, 1, {{"gbps", 1.0}}));
  const Headline h = headline_of(results);
  EXPECT_TRUE(h.parts.empty());
  EXPECT_EQ(h.limiting(), nullptr);
}

TEST(Headline, NamesThePartsThePredictionLacks) {
  const ResultsFile host = load_results(test::fixture("plots/host_cluster.json"));
  EXPECT_EQ(missing_prediction_parts(host), std::vector<std::string>{"compute/gemm"});
  const Headline h = headline_of(host);
  EXPECT_FALSE(h.prediction.has_value());
  EXPECT_EQ(h.missing_parts, std::vector<std::string>{"compute/gemm"});
  // What the parts say alone is still there.
  EXPECT_FALSE(h.parts.empty());
  EXPECT_NE(h.limiting(), nullptr);

  ResultsFile nothing;
  nothing.records.push_back(make_record("links", "pair_bw", {{"bytes", 1}}, 2, {{"gbps", 1.0}}));
  EXPECT_EQ(missing_prediction_parts(nothing),
            (std::vector<std::string>{"compute/gemm", "collectives/all_reduce"}));
}

ResultsFile without_storage(ResultsFile results) {
  std::erase_if(results.records, [](const Record& r) { return r.suite == "storage"; });
  return results;
}

// Input reads are optional in a training step: without storage records the headline still
// predicts, leaving the reads out and saying so.
TEST(Headline, PredictsWithoutStorageLeavingInputOut) {
  const ResultsFile results =
      without_storage(load_results(test::fixture("report/h200_cluster.json")));
  EXPECT_TRUE(missing_prediction_parts(results).empty());
  ReportOptions o = priced_options();
  const Headline h = headline_of(results, o);
  ASSERT_TRUE(h.prediction.has_value()) << h.prediction_problem;
  EXPECT_TRUE(h.prediction->model.input_left_out);
  ASSERT_EQ(h.predicted.size(), 2u);
  EXPECT_EQ(h.predicted[0].gpus, 64);
  EXPECT_EQ(h.predicted[1].gpus, 1024);
  // The same as a step that reads nothing, priced the same way.
  ReportOptions none = o;
  none.step.bytes_per_step = 0;
  const Headline reference = headline_of(results, none);
  ASSERT_TRUE(reference.prediction.has_value());
  EXPECT_FALSE(reference.prediction->model.input_left_out);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(h.predicted[i].input_s, 0);
    EXPECT_DOUBLE_EQ(h.predicted[i].efficiency, reference.predicted[i].efficiency);
    EXPECT_DOUBLE_EQ(*h.predicted_cost[i].cost, *reference.predicted_cost[i].cost);
  }
  EXPECT_LT(h.predicted[1].efficiency, 1.0);

  // Reads asked for explicitly cannot be left out: no prediction, and the flag is named.
  ReportOptions asked = o;
  asked.step.input_required = true;
  const Headline refused = headline_of(results, asked);
  EXPECT_FALSE(refused.prediction.has_value());
  EXPECT_NE(refused.prediction_problem.find("--bytes-per-step needs storage suite"),
            std::string::npos)
      << refused.prediction_problem;
}

// A part falls under 80 % at 512 GPUs by its law: inside a 1024-GPU horizon, not a 256 one.
TEST(Headline, PartsArePredictedUpToTheHorizon) {
  ResultsFile results;
  add_usl_curve(results, "compute", "triad", {{"bytes", 1u << 26}}, {1, 2, 4, 8}, 0.0005, 0.0);
  ReportOptions o = test::default_options();
  Headline h = headline_of(results, o);
  EXPECT_EQ(h.horizon_gpus, 1024);
  ASSERT_NE(h.limiting(), nullptr);
  EXPECT_EQ(h.limiting()->limit->gpus, 512);

  o.step.predict_to = 256;
  o.outlook_gpus = default_outlook_gpus(256);
  h = headline_of(results, o);
  EXPECT_EQ(h.horizon_gpus, 256);
  EXPECT_EQ(h.limiting(), nullptr);
  EXPECT_NE(limit_sentence(h).find("no part falls under 80 % up to 256 GPUs"), std::string::npos)
      << limit_sentence(h);
}

TEST(Headline, DefaultOutlookIs64AndTheHorizon) {
  EXPECT_EQ(default_outlook_gpus(1024), (std::vector<int>{64, 1024}));
  EXPECT_EQ(default_outlook_gpus(128), (std::vector<int>{64, 128}));
  EXPECT_EQ(default_outlook_gpus(64), (std::vector<int>{64}));
  EXPECT_EQ(default_outlook_gpus(16), (std::vector<int>{16}));
}

TEST(Headline, PredictsTheTrainingStepWhenEveryPartIsThere) {
  const ResultsFile results = load_results(test::fixture("report/h200_cluster.json"));
  EXPECT_TRUE(missing_prediction_parts(results).empty());
  ReportOptions o = priced_options();
  const Headline h = headline_of(results, o);
  ASSERT_TRUE(h.prediction.has_value()) << h.prediction_problem;
  ASSERT_EQ(h.predicted.size(), 2u);
  const TrainingStepModel model = build_training_step_model(results, o.step, "test.json");
  for (std::size_t i = 0; i < 2; ++i) {
    const StepTime expected = predict_step(model, o.outlook_gpus[i]);
    EXPECT_EQ(h.predicted[i].gpus, o.outlook_gpus[i]);
    EXPECT_DOUBLE_EQ(h.predicted[i].efficiency, expected.efficiency);
    EXPECT_NEAR(h.predicted_cost[i].overhead, 1 / expected.efficiency - 1, 1e-12);
    EXPECT_NEAR(*h.predicted_cost[i].wall_hours, 4000 / (o.outlook_gpus[i] * expected.efficiency),
                1e-9);
    EXPECT_NEAR(*h.predicted_cost[i].cost, 4000 * 2.5 / expected.efficiency, 1e-6);
  }
  // Across nodes the all-reduce runs at a tenth of NVLink's bandwidth: it limits first.
  ASSERT_NE(h.limiting(), nullptr);
  EXPECT_EQ(h.limiting()->name(), "collectives/all_reduce");
  EXPECT_EQ(h.limiting()->limit->gpus, 16);
  EXPECT_LT(h.predicted[0].efficiency, 1.0);
  EXPECT_LT(h.predicted[1].efficiency, h.predicted[0].efficiency);
}

TEST(Headline, ThePartsAreThereButCannotBeModelled) {
  ResultsFile results;
  results.records.push_back(make_record("compute", "gemm", {{"m", 8192}, {"n", 8192}, {"k", 8192}},
                                        1, {{"tflops", 780.0}}));
  // One message size on one GPU count: alpha and beta cannot be told apart.
  results.records.push_back(test::all_reduce_record(1e8, 2, 5e-6, 1 / 400e9));
  results.records.push_back(
      make_record("storage", "seq_read", {{"block_bytes", 1u << 20}}, 1, {{"gbps", 6.0}}));
  const Headline h = headline_of(results);
  EXPECT_TRUE(h.missing_parts.empty());
  EXPECT_FALSE(h.prediction.has_value());
  EXPECT_NE(h.prediction_problem.find("collectives suite, case all_reduce"), std::string::npos)
      << h.prediction_problem;
}

TEST(CostOutlook, TheWorkedExample) {
  // "On 64 GPUs at 70 % efficiency the job takes 89.3 hours and costs 43 % more than the ideal."
  ReportOptions o = priced_options();
  const CostOutlook c = cost_outlook(64, 0.7, o);
  EXPECT_NEAR(c.overhead, 0.428571, 1e-6);
  EXPECT_NEAR(*c.wall_hours, 89.2857, 1e-4);
  EXPECT_NEAR(*c.cost, 14285.714, 1e-3);
  EXPECT_NEAR(*c.ideal_cost, 10000, 1e-9);
}

TEST(CostOutlook, OverheadAloneWithoutAJobSize) {
  const CostOutlook c = cost_outlook(1024, 0.5, test::default_options());
  EXPECT_DOUBLE_EQ(c.overhead, 1.0);
  EXPECT_FALSE(c.wall_hours.has_value());
  EXPECT_FALSE(c.cost.has_value());
}

TEST(CostOutlook, AboveIdealIsANegativeOverhead) {
  ReportOptions o = test::default_options();
  o.gpu_hours = 100;
  const CostOutlook c = cost_outlook(2, 1.25, o);
  EXPECT_DOUBLE_EQ(c.overhead, -0.2);
  EXPECT_FALSE(c.wall_hours.has_value());
}

TEST(DefaultTrainingStep, IsAValidWorkload) {
  const PredictionConfig c = default_training_step();
  EXPECT_NO_THROW(validate_prediction_config(c));
  EXPECT_DOUBLE_EQ(c.gradient_bytes(), 14e9);
  EXPECT_DOUBLE_EQ(c.bytes_per_step, 4 * 16384);
}

} // namespace
} // namespace cb::report
