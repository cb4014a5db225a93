// The round-robin schedule of the pair tests, for every fleet size from 2 to 256: every pair in
// exactly one round, no member twice in a round, n - 1 rounds (even n) or n (odd n); the tiers of
// a job's ranks; the packing of retests into rounds.
#include <gtest/gtest.h>

#include <set>

#include "links/pair_schedule.hpp"

namespace cb {
namespace {

TEST(PairSchedule, EveryPairOnceNoMemberTwicePerRoundForTwoTo256Members) {
  for (int n = 2; n <= 256; ++n) {
    const int rounds = circle_round_count(n);
    ASSERT_EQ(rounds, n % 2 == 0 ? n - 1 : n) << n;
    std::vector<int> seen(static_cast<std::size_t>(n * n), 0);
    for (int r = 0; r < rounds; ++r) {
      std::vector<int> in_round(static_cast<std::size_t>(n), 0);
      const auto pairs = circle_round(n, r);
      // n / 2 pairs a round: for odd n exactly one member sits out.
      ASSERT_EQ(static_cast<int>(pairs.size()), n / 2) << "n " << n << " round " << r;
      for (const auto& [a, b] : pairs) {
        ASSERT_LT(a, b);
        ASSERT_EQ(++in_round[static_cast<std::size_t>(a)], 1) << "n " << n << " round " << r;
        ASSERT_EQ(++in_round[static_cast<std::size_t>(b)], 1) << "n " << n << " round " << r;
        ++seen[static_cast<std::size_t>(a * n + b)];
        ASSERT_EQ(circle_round_of(n, a, b), r);
        ASSERT_EQ(circle_round_of(n, b, a), r);
        ASSERT_EQ(circle_partner(n, r, a), b);
        ASSERT_EQ(circle_partner(n, r, b), a);
      }
      for (int m = 0; m < n; ++m) {
        if (in_round[static_cast<std::size_t>(m)] == 0) {
          ASSERT_EQ(circle_partner(n, r, m), -1);
        }
      }
    }
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b)
        ASSERT_EQ(seen[static_cast<std::size_t>(a * n + b)], 1)
            << "n " << n << " pair " << a << "," << b;
    }
  }
}

TEST(PairSchedule, OddFleetsSitEachMemberOutExactlyOnce) {
  for (int n : {3, 5, 7, 255}) {
    std::vector<int> out(static_cast<std::size_t>(n), 0);
    for (int r = 0; r < circle_round_count(n); ++r) {
      for (int m = 0; m < n; ++m)
        out[static_cast<std::size_t>(m)] += circle_partner(n, r, m) < 0 ? 1 : 0;
    }
    for (int count : out)
      EXPECT_EQ(count, 1) << n;
  }
}

TEST(PairSchedule, TooSmallFleetsHaveNoRoundsAndBadLookupsThrow) {
  EXPECT_EQ(circle_round_count(0), 0);
  EXPECT_EQ(circle_round_count(1), 0);
  EXPECT_THROW(circle_partner(4, 3, 0), std::out_of_range);
  EXPECT_THROW(circle_partner(4, 0, 4), std::out_of_range);
  EXPECT_THROW(circle_round_of(4, 2, 2), std::out_of_range);
}

TEST(PairTiers, NodesRunTheirOwnRoundsAtOnceAndLeadersPairAcrossNodes) {
  // 3 nodes of 4, 4 and 2 ranks (node ids as a launcher numbers them, not dense).
  const PairTiers tiers({7, 7, 7, 7, 3, 3, 3, 3, 9, 9});
  ASSERT_EQ(tiers.nodes(), 3);
  EXPECT_EQ(tiers.leader(0), 0);
  EXPECT_EQ(tiers.leader(1), 4);
  EXPECT_EQ(tiers.leader(2), 8);
  EXPECT_EQ(tiers.intra_rounds(), 3);
  EXPECT_EQ(tiers.inter_rounds(), 3);
  std::set<MemberPair> intra;
  for (int r = 0; r < tiers.intra_rounds(); ++r) {
    std::set<int> busy;
    for (const auto& [a, b] : tiers.intra_round(r)) {
      EXPECT_EQ(tiers.node_index_of_rank(a), tiers.node_index_of_rank(b));
      EXPECT_TRUE(busy.insert(a).second);
      EXPECT_TRUE(busy.insert(b).second);
      EXPECT_TRUE(intra.emplace(a, b).second);
    }
  }
  EXPECT_EQ(intra.size(), 6u + 6u + 1u);
  std::set<MemberPair> inter;
  for (const auto& p : tiers.all_inter())
    inter.insert(p);
  EXPECT_EQ(inter, (std::set<MemberPair>{{0, 4}, {0, 8}, {4, 8}}));
  EXPECT_EQ(tiers.all_intra().size(), intra.size());
}

TEST(PairTiers, RailsPairLocalRankIWithLocalRankI) {
  const PairTiers tiers({0, 0, 0, 1, 1, 1, 2, 2});
  EXPECT_EQ(tiers.node_pair_ranks(0, 1, true), (std::vector<MemberPair>{{0, 3}, {1, 4}, {2, 5}}));
  EXPECT_EQ(tiers.node_pair_ranks(1, 2, true), (std::vector<MemberPair>{{3, 6}, {4, 7}}));
  EXPECT_EQ(tiers.node_pair_ranks(0, 2, false), (std::vector<MemberPair>{{0, 6}}));
  EXPECT_EQ(tiers.local_index_of_rank(4), 1);
}

// Two 4-GPU nodes where srun (cyclic over sockets) or a wrapper gave node 1's ranks its GPUs in
// another order: rank 4 drives the GPU in slot 3a, rank 5 slot 18, ... A rail is a GPU slot (and
// the NIC beside it): pairing rank positions would have measured 18<->3a, crossing rails.
TEST(PairTiers, RailsPairGpusOfTheSameSlotWhateverRankDrivesThem) {
  const std::vector<std::string> bus = {"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0",
                                        "0000:5d:00.0", "0000:3a:00.0", "0000:18:00.0",
                                        "0000:5d:00.0", "0000:2a:00.0"};
  const PairTiers tiers({0, 0, 0, 0, 1, 1, 1, 1}, bus);
  const auto pairs = tiers.node_pair_ranks(0, 1, true);
  EXPECT_EQ(pairs, (std::vector<MemberPair>{{0, 5}, {1, 7}, {2, 4}, {3, 6}}));
  for (const auto& [a, b] : pairs)
    EXPECT_EQ(bus[static_cast<std::size_t>(a)], bus[static_cast<std::size_t>(b)]);
  EXPECT_EQ(tiers.rail_of_rank(5), 0);
  EXPECT_EQ(tiers.rail_of_rank(4), 2);
  // The node's own ranks still pair up in rank order within the node, and the leaders stand for
  // node pairs without rails.
  EXPECT_EQ(tiers.members(1), (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(tiers.node_pair_ranks(0, 1, false), (std::vector<MemberPair>{{0, 4}}));
}

// Without bus ids (the host backend) rails stay in rank order; ranks with a key come first.
TEST(PairTiers, RailsWithoutBusIdsKeepRankOrder) {
  const PairTiers plain({0, 0, 1, 1}, {"", "", "", ""});
  EXPECT_EQ(plain.node_pair_ranks(0, 1, true), (std::vector<MemberPair>{{0, 2}, {1, 3}}));
  const PairTiers partial({0, 0, 1, 1}, {"", "0000:18:00.0", "", "0000:18:00.0"});
  EXPECT_EQ(partial.node_pair_ranks(0, 1, true), (std::vector<MemberPair>{{1, 3}, {0, 2}}));
  EXPECT_EQ(partial.rail_of_rank(0), 1);
}

TEST(PairTiers, OneRankPerNodeHasNoIntraRounds) {
  const PairTiers tiers({0, 1, 2, 3, 4, 5});
  EXPECT_FALSE(tiers.any_intra());
  EXPECT_EQ(tiers.inter_rounds(), 5);
}

TEST(PackIntoRounds, NoMemberTwiceInARoundAndEveryRetestPlaced) {
  // One end (0) retested against five partners must take five rounds; the rest pack beside it.
  const std::vector<MemberPair> pairs{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {6, 7}, {8, 9}};
  const auto rounds = pack_into_rounds(pairs, 10);
  ASSERT_EQ(rounds.size(), 5u);
  std::size_t placed = 0;
  for (const auto& round : rounds) {
    std::set<int> busy;
    for (std::size_t i : round) {
      EXPECT_TRUE(busy.insert(pairs[i].first).second);
      EXPECT_TRUE(busy.insert(pairs[i].second).second);
      ++placed;
    }
  }
  EXPECT_EQ(placed, pairs.size());
  EXPECT_EQ(rounds[0].size(), 3u);
  EXPECT_TRUE(pack_into_rounds({}, 4).empty());
}

} // namespace
} // namespace cb
