#include <gtest/gtest.h>

#include "core/error.hpp"
#include "runtime/topology.hpp"

using namespace cb;

namespace {
// n nodes of r ranks, world ranks interleaved round-robin across nodes (as a cyclic mapping would).
NodeLayout cyclic(int nodes, int ranks_per_node) {
  std::vector<int> keys;
  std::vector<std::string> hosts;
  for (int i = 0; i < nodes * ranks_per_node; ++i) {
    keys.push_back(100 + i % nodes);
    hosts.push_back("n" + std::to_string(i % nodes));
  }
  return make_layout(keys, hosts);
}
} // namespace

TEST(Topology, NodeAwareOrderFillsANodeFirst) {
  const NodeLayout layout = cyclic(2, 2); // ranks 0,2 on n0; 1,3 on n1
  EXPECT_EQ(layout.node_count(), 2);
  EXPECT_EQ(layout.node_aware_order(), (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(members_for_count(layout, 2), (std::vector<int>{0, 2}));
  const Placement two = placement_of(layout, members_for_count(layout, 2));
  EXPECT_EQ(two.nodes, 1);
  EXPECT_EQ(two.ranks_per_node, 2);
  EXPECT_EQ(two.tier(), "intra");
  const Placement four = placement_of(layout, members_for_count(layout, 4));
  EXPECT_EQ(four.nodes, 2);
  EXPECT_EQ(four.tier(), "inter");
}

TEST(Topology, AutoCountsOnOneNodeArePowersOfTwoPlusWorld) {
  EXPECT_EQ(auto_gpu_counts_single_node(1), (std::vector<int>{1}));
  EXPECT_EQ(auto_gpu_counts_single_node(2), (std::vector<int>{1, 2}));
  EXPECT_EQ(auto_gpu_counts_single_node(6), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(auto_gpu_counts_single_node(8), (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(auto_gpu_counts(cyclic(1, 6)), (std::vector<int>{1, 2, 4, 6}));
}

TEST(Topology, AutoCountsFillANodeThenGrowByWholeNodes) {
  // 8 nodes of 4: 1, 2, 4 ranks on node 0, then 2, 4, 8 nodes.
  EXPECT_EQ(auto_gpu_counts(cyclic(8, 4)), (std::vector<int>{1, 2, 4, 8, 16, 32}));
  // 3 nodes of 2: 1, 2, then 2 nodes, then all 3.
  EXPECT_EQ(auto_gpu_counts(cyclic(3, 2)), (std::vector<int>{1, 2, 4, 6}));
  // 4 nodes of 1.
  EXPECT_EQ(auto_gpu_counts(cyclic(4, 1)), (std::vector<int>{1, 2, 4}));
}

TEST(Topology, ParseGpuCountsChecksOrderAndBounds) {
  EXPECT_EQ(parse_gpu_counts("1,2,4", 4), (std::vector<int>{1, 2, 4}));
  for (const char* bad : {"1,4,2", "2,2", "0", "1,8", "a", "1,,2", "-1"}) {
    try {
      parse_gpu_counts(bad, 4);
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--gpus"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(parse_gpu_counts_syntax("1,2,1024"));
  EXPECT_THROW(parse_gpu_counts_syntax("4,2"), InputError);
}
