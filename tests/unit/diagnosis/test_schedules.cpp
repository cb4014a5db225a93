#include <gtest/gtest.h>

#include <set>

#include "diagnosis/fabric_model.hpp"
#include "diagnosis/schedules.hpp"

namespace {

// A healthy fabric that checks every round is concurrent: no node sends twice or receives twice.
class CheckedFabric : public cb::PairOracle {
public:
  CheckedFabric(int nodes, int rails) : nodes_(nodes), rails_(rails) {}
  int nodes() const override { return nodes_; }
  int rails() const override { return rails_; }
  std::vector<double> measure(const std::vector<cb::Flow>& flows) override {
    std::set<int> senders, receivers;
    for (const auto& f : flows) {
      EXPECT_NE(f.src, f.dst);
      EXPECT_TRUE(senders.insert(f.src).second) << "node " << f.src << " sends twice";
      EXPECT_TRUE(receivers.insert(f.dst).second) << "node " << f.dst << " receives twice";
      partners.insert({f.src, f.dst});
    }
    return std::vector<double>(flows.size() * static_cast<std::size_t>(rails_), 100.0);
  }
  std::set<std::pair<int, int>> partners;

private:
  int nodes_, rails_;
};

std::vector<int> leaves_of(int nodes, int leaf_nodes) {
  std::vector<int> leaf;
  for (int h = 0; h < nodes; ++h)
    leaf.push_back(h / leaf_nodes);
  return leaf;
}

} // namespace

TEST(Schedules, SqrtGroupsAreConsecutive) {
  EXPECT_EQ(cb::sqrt_groups(10), (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2}));
  EXPECT_EQ(cb::sqrt_groups(1), (std::vector<int>{0}));
}

TEST(Schedules, AllPairsMeasuresEveryPairBothWaysInTheRoundRobinsRounds) {
  CheckedFabric fabric(7, 2);
  const cb::Measurements m = cb::run_all_pairs(fabric, false);
  EXPECT_EQ(m.tests, 21);
  EXPECT_EQ(m.rounds, 7) << "odd n: n rounds";
  EXPECT_EQ(fabric.partners.size(), 42u) << "every ordered pair";
  EXPECT_EQ(m.observations.size(), 42u * 2);
  CheckedFabric one_at_a_time(6, 1);
  const cb::Measurements s = cb::run_all_pairs(one_at_a_time, true);
  EXPECT_EQ(s.rounds, 15);
  long long tests = 0, rounds = 0;
  cb::all_pairs_cost(1024, false, tests, rounds);
  EXPECT_EQ(tests, 523776);
  EXPECT_EQ(rounds, 1023);
}

// A healthy fleet: four ring shifts inside each leaf and two across, nothing else, every node
// meeting at least four partners as sender and four as receiver: the same six rounds at 128, 1,024
// and 8,192 nodes.
TEST(Schedules, TheScreenOfAHealthyFleetIsSixRoundsAtAnySize) {
  for (int nodes : {128, 1024, 8192}) {
    CheckedFabric fabric(nodes, 1);
    const cb::Measurements m = cb::run_screen(fabric, leaves_of(nodes, 32), {});
    EXPECT_EQ(m.rounds, 6) << nodes;
    const int leaves = nodes / 32;
    EXPECT_EQ(m.tests, 4LL * leaves + 2LL * leaves) << nodes;
    std::vector<int> out(static_cast<std::size_t>(nodes)), in(static_cast<std::size_t>(nodes));
    for (const auto& [a, b] : fabric.partners) {
      ++out[static_cast<std::size_t>(a)];
      ++in[static_cast<std::size_t>(b)];
    }
    EXPECT_GE(*std::min_element(out.begin(), out.end()), 4) << nodes;
    EXPECT_GE(*std::min_element(in.begin(), in.end()), 4) << nodes;
  }
}

// A leaf whose nodes are mostly slow has no known-good partner inside: its halves are measured as
// rings (bisection) until the slow ones are isolated, then confirmed against good partners.
TEST(Schedules, BisectionIsolatesAMostlySlowLeaf) {
  cb::Scenario s;
  s.nodes = 16;
  s.gpus_per_node = 1;
  s.leaf_nodes = 8;
  s.seed = 4;
  for (int host : {0, 1, 2, 3, 4}) {
    cb::PlantedFault f;
    f.kind = cb::FaultKind::node;
    f.host = host;
    f.factor = 0.4;
    s.faults.push_back(f);
  }
  cb::FabricModel fabric(s);
  const cb::Measurements m = cb::run_screen(fabric, leaves_of(16, 8), {});
  EXPECT_GT(m.rounds, 6) << "bisection and confirmation rounds follow the screen";
  EXPECT_LT(m.rounds, 6 + 2 * 4 + 16);
  // Node 5 (healthy, in the slow leaf) met a known-good partner of the healthy half.
  bool five_with_good = false;
  for (const auto& o : m.observations) {
    if (o.round >= 6 && ((o.src == 5 && o.dst >= 5) || (o.dst == 5 && o.src >= 5)))
      five_with_good = true;
  }
  EXPECT_TRUE(five_with_good);
}
