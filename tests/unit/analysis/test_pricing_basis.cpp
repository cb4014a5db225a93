#include <algorithm>
#include <gtest/gtest.h>

#include "analysis/measured_step.hpp"
#include "analysis/pricing_basis.hpp"
#include "analysis_test_data.hpp"
#include "core/units.hpp"

using namespace cb;
using namespace cb::test;

namespace {

constexpr double kNodeAlpha = 20e-6, kNodeBeta = 1.0 / 10e9; // 10 GB/s inside the node

void add_node_ring(ResultsFile& f, const std::vector<int>& gpus) {
  for (int p : gpus) {
    for (double bytes = 1024; bytes <= 64.0 * 1024 * 1024; bytes *= 8)
      f.records.push_back(all_reduce_record(bytes, p, ring_time(kNodeAlpha, kNodeBeta, bytes, p)));
  }
}

// GEMM on one GPU, all_reduce on 2 and 4 GPUs of one node (8-GPU records: nodes = 1).
ResultsFile one_node_results() {
  ResultsFile f;
  f.records.push_back(make_record("compute", "gemm",
                                  {{"dtype", "bf16"}, {"m", 4096}, {"n", 4096}, {"k", 4096}}, 1,
                                  {{"tflops", 100}}));
  add_node_ring(f, {2, 4});
  return f;
}

PredictionConfig basis_config() {
  PredictionConfig c;
  c.model_params = 1e9;
  c.tokens_per_gpu = 1000;
  c.predict_to = 64;
  return c;
}

AssumedLink assumed_link(const std::string& text) {
  return {text, parse_link_rate(text, "--plan-link")};
}

} // namespace

TEST(PricingBasis, BeyondOneNodeWithNothingMeasuredAcrossNodesIsNotPriced) {
  const auto model = build_training_step_model(one_node_results(), basis_config(), "run.json");
  ASSERT_EQ(model.gpus_per_node, 4);
  EXPECT_EQ(unpriced_across_nodes(model, 4), "");
  const std::string why = unpriced_across_nodes(model, 64);
  EXPECT_NE(why.find("not priced on 64 GPUs"), std::string::npos) << why;
  EXPECT_NE(why.find("nothing was measured across nodes (at most 4 GPUs, on one node)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("--gpus 4,8 on two nodes"), std::string::npos) << why;
  EXPECT_NE(why.find("--plan-link RATE"), std::string::npos) << why;
  const PricingBasis b = predicted_basis(model, 4);
  ASSERT_EQ(b.items.size(), 3u);
  EXPECT_EQ(b.items[1].basis, "the intra-node ring fit of all_reduce measured on 2..4 GPUs");
  EXPECT_FALSE(b.any_assumed());
}

TEST(PricingBasis, AnAssumedLinkPricesAcrossNodesAndSaysSo) {
  PredictionConfig c = basis_config();
  c.plan_link = assumed_link("400gbit"); // 50 GB/s per rank, faster than the node's 10 GB/s
  auto model = build_training_step_model(one_node_results(), c, "run.json");
  EXPECT_EQ(unpriced_across_nodes(model, 64), "");
  const RingAllReduceFit& inter = ring_tier_at(model, 64);
  EXPECT_TRUE(inter.assumed);
  EXPECT_EQ(inter.tier, "inter");
  // The ring runs at its slowest link: here the node's own.
  EXPECT_NEAR(inter.beta_s_per_byte, kNodeBeta, kNodeBeta * 0.02);
  EXPECT_NEAR(inter.alpha_s, ring_tier_at(model, 4).alpha_s, 1e-12);
  const PricingBasis b = predicted_basis(model, 64);
  EXPECT_TRUE(b.any_assumed());
  EXPECT_NE(describe_basis(b).find("assumed: the link --plan-link 400gbit"), std::string::npos)
      << describe_basis(b);
  EXPECT_NE(model.warnings.back().find("assumed link --plan-link 400gbit"), std::string::npos);

  c.plan_link = assumed_link("1gbit"); // 0.125 GB/s: slower than the node, so it sets the pace
  model = build_training_step_model(one_node_results(), c, "run.json");
  EXPECT_DOUBLE_EQ(ring_tier_at(model, 64).beta_s_per_byte, 1 / 0.125e9);
  EXPECT_GT(predict_step(model, 64).all_reduce_s, predict_step(model, 4).all_reduce_s * 10);
}

TEST(PricingBasis, AMeasuredInterNodeTierIsExtrapolatedNotAssumed) {
  ResultsFile f = one_node_results();
  add_node_ring(f, {16, 32}); // two and four nodes of 8
  PredictionConfig c = basis_config();
  c.plan_link = assumed_link("400gbit"); // not used: the network was measured
  const auto model = build_training_step_model(f, c, "run.json");
  EXPECT_EQ(unpriced_across_nodes(model, 64), "");
  EXPECT_FALSE(ring_tier_at(model, 64).assumed);
  // The flag given and not used is said, not dropped.
  EXPECT_NE(std::find(model.warnings.begin(), model.warnings.end(),
                      "--plan-link 400gbit not used: all_reduce was measured across nodes"),
            model.warnings.end());
  const PricingBasis b = predicted_basis(model, 64);
  EXPECT_EQ(b.items[1].basis,
            "the inter-node ring fit of all_reduce measured on 16..32 GPUs, extrapolated");
  EXPECT_TRUE(b.items[1].extrapolated);
  EXPECT_EQ(b.items[2].basis, "none read");
  const auto json = basis_to_json(b);
  EXPECT_EQ(json["gpus"], 64);
  EXPECT_EQ(json["parts"][1]["part"], "all-reduce");
  EXPECT_EQ(json["parts"][1]["assumed"], false);
}

TEST(PricingBasis, TheMeasuredStepIsNotExtrapolatedAcrossNodesUnpriced) {
  ResultsFile f = one_node_results();
  auto step = [](int gpus, double s) {
    Record r = make_record("workload", "data_parallel_step",
                           {{"model_params", 1e6},
                            {"tokens_per_gpu", 64},
                            {"bucket_bytes", 1 << 20},
                            {"overlap", "on"},
                            {"input_bytes_per_step", 0},
                            {"layers", 4},
                            {"width", 500}},
                           gpus,
                           {{"step_s", s},
                            {"compute_s", 0.1},
                            {"exposed_comm_s", s - 0.1},
                            {"input_wait_s", 0},
                            {"utilization", 0.1 / s},
                            {"tokens_per_s", gpus * 64 / s}});
    r.extra["gradient_bytes"] = 4e6;
    r.extra["largest_loss"] = "exposed_comm";
    return r;
  };
  f.records.push_back(step(1, 0.1));
  f.records.push_back(step(2, 0.11));
  auto v = validate_step(f, "run.json", 64);
  ASSERT_TRUE(v && v->model) << (v ? v->model_problem : "");
  std::string how;
  EXPECT_TRUE(step_efficiency_at(*v, 4, &how)); // within the node
  EXPECT_FALSE(step_efficiency_at(*v, 64, &how));
  EXPECT_NE(how.find("not priced on 64 GPUs"), std::string::npos) << how;
  EXPECT_EQ(measured_step_basis(*v, 2).items.front().basis, "measured at 2 GPUs");

  v = validate_step(f, "run.json", 64, assumed_link("25gbit"));
  ASSERT_TRUE(v && v->model);
  const auto e = step_efficiency_at(*v, 64, &how);
  ASSERT_TRUE(e) << how;
  EXPECT_NE(how.find("calibrated"), std::string::npos);
  const PricingBasis b = measured_step_basis(*v, 64);
  EXPECT_TRUE(b.any_assumed());
  EXPECT_EQ(b.items.front().basis, "calibrated by the step measured up to 2 GPUs");
}
