#include <gtest/gtest.h>

#include <cmath>

#include "diagnosis/fabric_model.hpp"

namespace {

cb::Scenario fabric(int nodes, int gpus, int leaf_nodes, double oversubscription = 1,
                    double noise = 0) {
  cb::Scenario s;
  s.nodes = nodes;
  s.gpus_per_node = gpus;
  s.leaf_nodes = leaf_nodes;
  s.oversubscription = oversubscription;
  s.rail_gbps = 400;
  s.noise = noise;
  s.seed = 11;
  return s;
}

cb::PlantedFault fault(cb::FaultKind kind, int host, int gpu, int leaf, double factor) {
  cb::PlantedFault f;
  f.kind = kind;
  f.host = host;
  f.gpu = gpu;
  f.leaf = leaf;
  f.factor = factor;
  return f;
}

} // namespace

TEST(FabricModel, AHealthyRailRunsAtItsRateAndAFlowAtItsSlowerEnd) {
  cb::Scenario s = fabric(8, 2, 4);
  s.faults = {fault(cb::FaultKind::node, 1, -1, -1, 0.25),
              fault(cb::FaultKind::rail, 2, 1, -1, 0.5)};
  cb::FabricModel model(s);
  const auto f = model.measure({{0, 3}, {1, 0}, {3, 2}});
  ASSERT_EQ(f.size(), 6u);
  EXPECT_DOUBLE_EQ(f[0], 400);
  EXPECT_DOUBLE_EQ(f[1], 400);
  EXPECT_DOUBLE_EQ(f[2], 100) << "a slow node is slow as a sender on every rail";
  EXPECT_DOUBLE_EQ(f[3], 100);
  EXPECT_DOUBLE_EQ(f[4], 400) << "rail 0 of host 2 is healthy";
  EXPECT_DOUBLE_EQ(f[5], 200) << "rail 1 of host 2 is the slow NIC, as a receiver too";
}

TEST(FabricModel, ASlowUplinkSlowsOnlyTheLeafsCrossingFlows) {
  cb::Scenario s = fabric(8, 1, 4);
  s.faults = {fault(cb::FaultKind::uplink, -1, -1, 1, 0.5)};
  cb::FabricModel model(s);
  // All four nodes of leaf 1 send across at once: its uplinks carry half of four rails.
  const auto f = model.measure({{4, 0}, {5, 1}, {6, 2}, {7, 3}, {0, 1}});
  for (int i = 0; i < 4; ++i)
    EXPECT_DOUBLE_EQ(f[static_cast<std::size_t>(i)], 200) << i;
  EXPECT_DOUBLE_EQ(f[4], 400) << "inside a leaf the fabric is non-blocking";
}

TEST(FabricModel, OversubscriptionSharesTheUplinksOnlyWhenTheyAreFull) {
  cb::FabricModel model(fabric(8, 1, 4, 2.0));
  const auto busy = model.measure({{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  for (double figure : busy)
    EXPECT_DOUBLE_EQ(figure, 200);
  const auto quiet = model.measure({{0, 4}, {1, 5}});
  for (double figure : quiet)
    EXPECT_DOUBLE_EQ(figure, 400) << "two rails fit in the leaf's two rails of uplink";
}

TEST(FabricModel, NoiseIsDrawnFromTheSeed) {
  cb::FabricModel a(fabric(4, 8, 4, 1, 0.05)), b(fabric(4, 8, 4, 1, 0.05));
  cb::Scenario other = fabric(4, 8, 4, 1, 0.05);
  other.seed = 12;
  cb::FabricModel c(other);
  const auto fa = a.measure({{0, 1}, {2, 3}});
  EXPECT_EQ(fa, b.measure({{0, 1}, {2, 3}}));
  EXPECT_NE(fa, c.measure({{0, 1}, {2, 3}}));
  double sum = 0, squares = 0;
  const int n = 20000;
  for (int i = 0; i < n / 16; ++i) {
    for (double figure : a.measure({{0, 1}, {2, 3}})) {
      sum += figure / 400;
      squares += (figure / 400) * (figure / 400);
    }
  }
  const double mean = sum / n, sd = std::sqrt(squares / n - mean * mean);
  EXPECT_NEAR(mean, 1.0, 0.005);
  EXPECT_NEAR(sd, 0.05, 0.003);
}
