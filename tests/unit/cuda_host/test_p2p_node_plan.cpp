#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "cuda/p2p_node_plan.hpp"
#include "links/pair_schedule.hpp"

namespace cb::cuda {
namespace {

std::vector<RankPairs> circle_rounds(int n) {
  std::vector<RankPairs> rounds;
  for (int r = 0; r < circle_round_count(n); ++r)
    rounds.push_back(circle_round(n, r));
  return rounds;
}

TEST(P2pNodePlan, OnlyTheFirstNodesRanksMeasure) {
  // Comm ranks 0, 1 and 4 are on rank 0's node (node ids as the layout numbers them).
  EXPECT_EQ(first_node_members({0, 0, 1, 1, 0}), (std::vector<int>{0, 1, 4}));
  EXPECT_EQ(first_node_members({3}), (std::vector<int>{0}));
  EXPECT_EQ(first_node_members({2, 5, 5, 5}), (std::vector<int>{0}));
}

// One GPU (one rank per node, or --np 1): a skip that says it covers one GPU.
TEST(P2pNodePlan, OneGpuHasNoPairToMeasure) {
  EXPECT_EQ(why_no_p2p_matrix({0}), "1 GPU: no pair to measure");
  EXPECT_EQ(why_no_p2p_matrix({3}), "1 GPU: no pair to measure");
}

// Each process uses only its own GPU's context: EXCLUSIVE_PROCESS (common on Slurm sites) and the
// retired exclusive-thread mode no longer refuse; PROHIBITED (no context at all) does.
TEST(P2pNodePlan, OnlyAComputeModeThatForbidsEveryContextRefuses) {
  EXPECT_EQ(why_no_p2p_matrix(std::vector<int>(8, 3)), "");
  EXPECT_EQ(why_no_p2p_matrix({0, 1, 3, 0}), "");
  EXPECT_EQ(why_no_p2p_matrix({0, 2}),
            "the GPU of the node's rank 1 is in compute mode Prohibited (no process may use it) "
            "(nvidia-smi -c DEFAULT or EXCLUSIVE_PROCESS allows the matrix)");
  EXPECT_NE(why_no_p2p_matrix({7, 0}).find("rank 0 is in an unknown compute mode 7"),
            std::string::npos);
}

// One way on 8 GPUs: 7 rounds of 4 disjoint pairs, each round in two steps, every ordered pair
// once; in a step a rank pushes at most once and receives at most once.
TEST(P2pNodePlan, OneWayStepsCoverEveryOrderedPairOnce) {
  const auto steps = p2p_steps(circle_rounds(8), false);
  ASSERT_EQ(steps.size(), 14u);
  std::set<std::pair<int, int>> seen;
  for (const P2pStep& step : steps) {
    EXPECT_EQ(step.pairs.size(), 4u);
    std::set<int> sources, destinations;
    for (const DevicePair& p : step.pairs) {
      EXPECT_TRUE(seen.insert({p.src, p.dst}).second);
      EXPECT_TRUE(sources.insert(p.src).second);
      EXPECT_TRUE(destinations.insert(p.dst).second);
      EXPECT_EQ(push_target(step, p.src, false), p.dst);
      EXPECT_EQ(push_target(step, p.dst, false), -1); // one way: the destination only receives
      EXPECT_TRUE(receives_in(step, p.dst, false));
      EXPECT_FALSE(receives_in(step, p.src, false));
    }
  }
  EXPECT_EQ(seen.size(), 56u);
  // The two steps of a round are the same pairs, one direction each.
  EXPECT_EQ(steps[0].round, 0);
  EXPECT_EQ(steps[1].round, 0);
  EXPECT_EQ(steps[0].pairs.front().src, steps[1].pairs.front().dst);
}

// Both ways: one step per round, both ends push into each other at once.
TEST(P2pNodePlan, BothWaysEveryRankPushesToItsPartner) {
  const auto steps = p2p_steps(circle_rounds(8), true);
  ASSERT_EQ(steps.size(), 7u);
  std::set<std::pair<int, int>> seen;
  for (const P2pStep& step : steps) {
    for (int me = 0; me < 8; ++me) {
      const int partner = push_target(step, me, true);
      ASSERT_GE(partner, 0);
      EXPECT_EQ(push_target(step, partner, true), me);
      EXPECT_TRUE(receives_in(step, me, true));
      seen.insert({std::min(me, partner), std::max(me, partner)});
    }
  }
  EXPECT_EQ(seen.size(), 28u);
}

// An odd count: the rank paired with the phantom sits the round out.
TEST(P2pNodePlan, OddCountsLeaveOneRankOutPerRound) {
  const auto steps = p2p_steps(circle_rounds(3), true);
  ASSERT_EQ(steps.size(), 3u);
  for (const P2pStep& step : steps) {
    int idle = 0;
    for (int me = 0; me < 3; ++me)
      idle += push_target(step, me, true) < 0 && !receives_in(step, me, true);
    EXPECT_EQ(idle, 1);
  }
}

TEST(P2pNodePlan, SequentialRunsOnePairAtATime) {
  const auto rounds = sequential_rounds(4);
  ASSERT_EQ(rounds.size(), 6u);
  for (const RankPairs& r : rounds)
    EXPECT_EQ(r.size(), 1u);
  EXPECT_EQ(p2p_steps(rounds, false).size(), 12u);
  EXPECT_EQ(p2p_steps(rounds, true).size(), 6u);
  EXPECT_TRUE(sequential_rounds(1).empty());
  EXPECT_TRUE(p2p_steps({}, true).empty());
}

// A pair whose buffer could not be mapped (no peer path) is a skipped pair with CUDA's reason;
// the rest of the step still runs.
TEST(P2pNodePlan, UnmappedPairsAreSkippedWithTheReason) {
  std::vector<std::vector<std::string>> unmapped(4, std::vector<std::string>(4, ""));
  unmapped[0][1] = "cudaIpcOpenMemHandle: cudaErrorPeerAccessUnsupported";
  unmapped[3][2] = "cudaIpcOpenMemHandle: cudaErrorInvalidDevice";
  nlohmann::json skipped = nlohmann::json::array();
  const P2pStep one_way{2, {{0, 1}, {2, 3}}};
  const P2pStep kept = runnable_step(one_way, unmapped, false, skipped);
  EXPECT_EQ(kept, (P2pStep{2, {{2, 3}}}));
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0]["src"], 0);
  EXPECT_EQ(skipped[0]["dst"], 1);
  EXPECT_EQ(skipped[0]["reason"], unmapped[0][1]);
  EXPECT_EQ(push_target(kept, 0, false), -1);
  EXPECT_FALSE(receives_in(kept, 1, false));

  // Both ways, both ends must have mapped the other's buffer.
  skipped = nlohmann::json::array();
  const P2pStep both = runnable_step(P2pStep{0, {{0, 1}, {2, 3}}}, unmapped, true, skipped);
  EXPECT_TRUE(both.pairs.empty());
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[1]["reason"], "the other way: cudaIpcOpenMemHandle: cudaErrorInvalidDevice");
  // A rank that reported nothing counts as unmapped, never as mapped.
  skipped = nlohmann::json::array();
  EXPECT_TRUE(runnable_step(P2pStep{0, {{0, 5}}}, unmapped, false, skipped).pairs.empty());
}

// MPI ranks are processes even where their pids are equal (a container per rank, each its own
// pid namespace); only threads of one process use the raw pointer.
TEST(P2pNodePlan, OnlyThreadsOfOneProcessShareRawPointers) {
  EXPECT_TRUE(same_process(4242, 4242, true));
  EXPECT_FALSE(same_process(4242, 4243, true));
  EXPECT_FALSE(same_process(1, 1, false));
  EXPECT_FALSE(same_process(4242, 4243, false));
}

TEST(P2pNodePlan, PushTimesTravelAsText) {
  const std::vector<PushTime> pushes{{0, 1, 0, 0.0125}, {0, 3, 4, 1e-6}};
  EXPECT_EQ(push_times_from_text(push_times_text(pushes)), pushes);
  EXPECT_TRUE(push_times_from_text(push_times_text({})).empty());
  EXPECT_THROW(push_times_from_text("{}"), RunError);
  EXPECT_THROW(push_times_from_text("[[0, 1, 0]]"), RunError);
  EXPECT_THROW(push_times_from_text("[[0, \"1\", 0, 0.1]]"), RunError);
  EXPECT_THROW(push_times_from_text("not json"), RunError);
}

TEST(P2pNodePlan, OneWayMatrixIsEachSourcesOwnRate) {
  // 1 GB in 10 ms from 0 to 1, in 20 ms back: 100 and 50 GB/s.
  const NodeMatrix m =
      assemble_p2p_matrix({{0, 1, 0, 0.01}, {1, 0, 0, 0.02}, {2, 0, 1, 0}}, 1000000000, false);
  ASSERT_EQ(m.gbps.size(), 2u);
  EXPECT_DOUBLE_EQ(m.gbps.at({0, 1}), 100.0);
  EXPECT_DOUBLE_EQ(m.gbps.at({1, 0}), 50.0);
  EXPECT_EQ(m.pair_seconds.size(), 2u); // the unmeasured push (0 s) is left out
  EXPECT_EQ(m.pair_rounds, nlohmann::json::parse("[[0, 1, 0], [1, 0, 0]]"));
  const auto json = link_matrix_json(3, m.gbps, false);
  EXPECT_EQ(json[0][1], 100.0);
  EXPECT_EQ(json[1][0], 50.0);
  EXPECT_TRUE(json[2][0].is_null());
}

// Both ways: the pair's two pushes ran at once; 2 x bytes over the slower one, in both cells.
TEST(P2pNodePlan, BothWaysMatrixCountsBothDirectionsOverTheSlowerPush) {
  const NodeMatrix m = assemble_p2p_matrix({{1, 0, 3, 0.02}, {0, 1, 3, 0.01}}, 1000000000, true);
  ASSERT_EQ(m.gbps.size(), 1u);
  EXPECT_DOUBLE_EQ(m.gbps.at({0, 1}), 100.0); // 2 GB in 20 ms
  EXPECT_EQ(m.pair_seconds, (std::vector<double>{0.02}));
  EXPECT_EQ(m.pair_rounds, nlohmann::json::parse("[[0, 1, 3]]"));
  const auto json = link_matrix_json(2, m.gbps, true);
  EXPECT_EQ(json[0][1], 100.0);
  EXPECT_EQ(json[1][0], 100.0);
}

TEST(P2pNodePlan, IpcHandlesRoundTripAsHex) {
  std::string all;
  for (int b = 0; b < 256; ++b)
    all.push_back(static_cast<char>(b));
  EXPECT_EQ(bytes_of_hex(hex_of_bytes(all)), all);
  EXPECT_EQ(hex_of_bytes(std::string("\x00\xff\x10", 3)), "00ff10");
  EXPECT_EQ(hex_of_bytes(std::string(64, '\0')).size(), 128u);
  EXPECT_THROW(bytes_of_hex("abc"), RunError);
  EXPECT_THROW(bytes_of_hex("zz"), RunError);
  EXPECT_THROW(bytes_of_hex("AB"), RunError);
}

} // namespace
} // namespace cb::cuda
