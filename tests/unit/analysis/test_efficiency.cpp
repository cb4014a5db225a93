#include <gtest/gtest.h>

#include "analysis/efficiency.hpp"

using namespace cb;

namespace {

Curve curve(const std::string& suite, const std::string& metric, std::vector<int> gpus,
            std::vector<double> values) {
  Curve c;
  c.key = {suite, "case", metric, nlohmann::json::object(), "intra"};
  c.gpus = std::move(gpus);
  c.value = std::move(values);
  c.nodes.assign(c.gpus.size(), 1);
  return c;
}

} // namespace

TEST(Efficiency, AggregateThroughputAgainstOneGpu) {
  // E(N) = X(N) / (N X(1))
  const auto e = efficiency(curve("storage", "gbps", {1, 2, 4, 8}, {10, 19, 36, 64}));
  EXPECT_EQ(e.base_gpus, 1);
  EXPECT_TRUE(e.warnings.empty());
  ASSERT_EQ(e.value.size(), 4u);
  EXPECT_DOUBLE_EQ(*e.value[0], 1.0);
  EXPECT_DOUBLE_EQ(*e.value[1], 0.95);
  EXPECT_DOUBLE_EQ(*e.value[2], 0.9);
  EXPECT_DOUBLE_EQ(*e.value[3], 0.8);
}

TEST(Efficiency, CollectivesAgainstTwoGpus) {
  // E(N) = busbw(N) / busbw(2); busbw on one GPU is 0 and has no efficiency.
  const auto e = efficiency(curve("collectives", "busbw_gbps", {1, 2, 4, 8}, {0, 10, 9, 8}));
  EXPECT_EQ(e.base_gpus, 2);
  EXPECT_FALSE(e.value[0].has_value());
  EXPECT_DOUBLE_EQ(*e.value[1], 1.0);
  EXPECT_DOUBLE_EQ(*e.value[2], 0.9);
  EXPECT_DOUBLE_EQ(*e.value[3], 0.8);
}

TEST(Efficiency, WithoutTheBasePointItIsRelativeAndSaysSo) {
  const auto e = efficiency(curve("compute", "tflops", {2, 4, 8}, {20, 36, 64}));
  EXPECT_EQ(e.base_gpus, 2);
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_NE(e.warnings[0].find("relative to 2 GPUs"), std::string::npos);
  EXPECT_DOUBLE_EQ(*e.value[0], 1.0);
  EXPECT_DOUBLE_EQ(*e.value[1], 0.9);
  EXPECT_DOUBLE_EQ(*e.value[2], 0.8);
}

TEST(Efficiency, LatencyHasNone) {
  const auto e = efficiency(curve("links", "latency_us", {2, 4}, {3, 4}));
  EXPECT_FALSE(e.value[0].has_value());
  EXPECT_FALSE(e.value[1].has_value());
  ASSERT_FALSE(e.warnings.empty());
  EXPECT_NE(e.warnings[0].find("not a throughput"), std::string::npos);
  EXPECT_FALSE(scaling_series(curve("links", "latency_us", {2, 4}, {3, 4})));
}

TEST(ScalingSeries, CollectivesBecomeAggregateBusBandwidth) {
  const auto s = scaling_series(curve("collectives", "busbw_gbps", {1, 2, 4, 8}, {0, 10, 9, 8}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->n, (std::vector<double>{2, 4, 8}));
  EXPECT_EQ(s->x, (std::vector<double>{20, 36, 64}));
  EXPECT_DOUBLE_EQ(s->x1, 10); // busbw(2)
  // speedup x / x1 = N E(N)
  EXPECT_DOUBLE_EQ(s->x[2] / s->x1, 8 * 0.8);
}
