// The screen's rounds as the pair tests measure them: disjoint sub-rounds, and the default
// schedule by the node count.
#include <gtest/gtest.h>

#include <set>

#include "diagnosis/schedules.hpp"

using namespace cb;

namespace {

std::vector<Flow> ring_shift(int size, int shift) {
  std::vector<Flow> flows;
  for (int i = 0; i < size; ++i)
    flows.push_back({i, (i + shift) % size});
  return flows;
}

// Every sub-round has no node twice; every flow's node pair is in exactly one sub-round.
void expect_disjoint_cover(const std::vector<Flow>& flows,
                           const std::vector<std::vector<MemberPair>>& subs) {
  std::multiset<MemberPair> covered;
  for (const auto& sub : subs) {
    std::set<int> nodes;
    for (const auto& [a, b] : sub) {
      EXPECT_TRUE(nodes.insert(a).second) << "node " << a << " twice in a sub-round";
      EXPECT_TRUE(nodes.insert(b).second) << "node " << b << " twice in a sub-round";
      covered.insert({std::min(a, b), std::max(a, b)});
    }
  }
  std::set<MemberPair> wanted;
  for (const Flow& f : flows)
    wanted.insert({std::min(f.src, f.dst), std::max(f.src, f.dst)});
  EXPECT_EQ(covered.size(), wanted.size());
  for (const auto& p : wanted)
    EXPECT_EQ(covered.count(p), 1u);
}

} // namespace

TEST(SubRounds, AnEvenRingInTwoAndAnOddOneInThree) {
  auto flows = ring_shift(8, 1);
  auto subs = disjoint_sub_rounds(flows);
  EXPECT_EQ(subs.size(), 2u);
  expect_disjoint_cover(flows, subs);
  flows = ring_shift(7, 1);
  subs = disjoint_sub_rounds(flows);
  EXPECT_EQ(subs.size(), 3u);
  expect_disjoint_cover(flows, subs);
  // Shift 3 of 12: three cycles of four, interleaved in the flows' order.
  flows = ring_shift(12, 3);
  subs = disjoint_sub_rounds(flows);
  EXPECT_LE(subs.size(), 3u);
  expect_disjoint_cover(flows, subs);
}

TEST(SubRounds, KeepsEachFlowsDirection) {
  const std::vector<Flow> flows = {{0, 1}, {1, 2}, {2, 0}};
  const auto subs = disjoint_sub_rounds(flows);
  std::set<MemberPair> directed;
  for (const auto& sub : subs)
    directed.insert(sub.begin(), sub.end());
  EXPECT_EQ(directed, (std::set<MemberPair>{{0, 1}, {1, 2}, {2, 0}}));
}

TEST(SubRounds, AFlowAndItsReverseAreOnePair) {
  // Two nodes of a group of two: shift 1 sends both ways, one node pair.
  const auto subs = disjoint_sub_rounds({{4, 9}, {9, 4}});
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0], (std::vector<MemberPair>{{4, 9}}));
  EXPECT_TRUE(disjoint_sub_rounds({}).empty());
}

TEST(SubRounds, EveryRoundOfAScreenSplitsInAtMostThree) {
  // The screen's own rounds over a counting oracle: no round needs more than three sub-rounds.
  class Counting : public PairOracle {
  public:
    int nodes() const override { return 1000; }
    int rails() const override { return 1; }
    std::vector<double> measure(const std::vector<Flow>& flows) override {
      const auto subs = disjoint_sub_rounds(flows);
      most = std::max(most, subs.size());
      expect_disjoint_cover(flows, subs);
      return std::vector<double>(flows.size(), 100.0);
    }
    std::size_t most = 0;
  } oracle;
  const Measurements m = run_screen(oracle, sqrt_groups(1000), ScreenSettings{});
  EXPECT_EQ(m.rounds, 6);
  EXPECT_GE(oracle.most, 2u);
  EXPECT_LE(oracle.most, 3u);
}

TEST(PairScheduleFor, ScreenFromSixteenNodesUnlessAsked) {
  EXPECT_EQ(pair_schedule_for("", 2), "rounds");
  EXPECT_EQ(pair_schedule_for("", kScreenFromNodes - 1), "rounds");
  EXPECT_EQ(pair_schedule_for("", kScreenFromNodes), "screen");
  EXPECT_EQ(pair_schedule_for("", 1024), "screen");
  EXPECT_EQ(pair_schedule_for("rounds", 1024), "rounds");
  EXPECT_EQ(pair_schedule_for("sequential", 4096), "sequential");
  EXPECT_EQ(pair_schedule_for("screen", 4), "screen");
}
