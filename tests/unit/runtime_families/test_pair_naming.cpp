// The second pass of the pair tests on synthetic fleets: one slow node among 6, 16 and 128 is
// named alone (not its partners, though every pair it is in is suspect); one bad link is named as
// a link; a clean fleet names nothing; a transient dip is cleared by its own retest; at 1,024
// members each stage of the second pass stays within its round cap, whatever the noise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "links/pair_naming.hpp"

namespace cb {
namespace {

// A fleet's true rate per member and per link: a pair moves at the slower of its ends, times its
// link's factor. `noise(a, b)` perturbs the first pass only.
struct Fleet {
  int n;
  std::vector<double> rate;
  std::function<double(int, int)> link = [](int, int) { return 1.0; };
  std::function<double(int, int)> noise = [](int, int) { return 1.0; };
  double pair(int a, int b) const {
    return std::min(rate[static_cast<std::size_t>(a)], rate[static_cast<std::size_t>(b)]) *
           link(a, b);
  }
};

Fleet uniform(int n, double gbps) {
  return {n, std::vector<double>(static_cast<std::size_t>(n), gbps)};
}

// Deterministic uniform numbers in [0, 1): xorshift64.
struct Xorshift64 {
  std::uint64_t state;
  double operator()() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  }
};

// Every pair once, at its true rate (no noise).
std::vector<MemberPairFigure> first_pass(const Fleet& f) {
  std::vector<MemberPairFigure> figures;
  for (int a = 0; a < f.n; ++a) {
    for (int b = a + 1; b < f.n; ++b)
      figures.push_back({a, b, f.pair(a, b)});
  }
  return figures;
}

// Every pair once, as the first pass measures it: its true rate times its noise.
std::vector<MemberPairFigure> first_pass_with_noise(const Fleet& f) {
  std::vector<MemberPairFigure> figures;
  for (int a = 0; a < f.n; ++a) {
    for (int b = a + 1; b < f.n; ++b)
      figures.push_back({a, b, f.pair(a, b) * f.noise(a, b)});
  }
  return figures;
}

// Stage 1 measured at the fleet's true rates.
void retest_ends(PairNaming& naming, const Fleet& f) {
  std::vector<double> ends;
  for (const auto& e : naming.end_retests())
    ends.push_back(f.pair(e.member, e.partner));
  naming.record_end_retests(ends);
}

PairVerdicts second_pass(const Fleet& f, const PairRule& rule = bandwidth_rule()) {
  PairNaming naming(f.n, first_pass_with_noise(f), rule);
  std::vector<double> ends;
  for (const auto& e : naming.end_retests()) {
    EXPECT_NE(e.member, e.partner);
    EXPECT_TRUE(naming.good(e.partner));
    ends.push_back(f.pair(e.member, e.partner));
  }
  naming.record_end_retests(ends);
  std::vector<double> again;
  for (const auto& [a, b] : naming.pair_retests())
    again.push_back(f.pair(a, b));
  naming.record_pair_retests(again);
  return naming.verdicts();
}

TEST(PairNaming, OneSlowNodeIsNamedAloneAmong6_16And128) {
  for (int n : {6, 16, 128}) {
    Fleet f = uniform(n, 12.0);
    const int slow = n / 2 + 1;
    f.rate[static_cast<std::size_t>(slow)] = 4.0; // a third of the others
    const PairVerdicts v = second_pass(f);
    EXPECT_EQ(v.nodes, std::vector<int>{slow}) << n;
    EXPECT_TRUE(v.links.empty()) << n;
    EXPECT_TRUE(v.unresolved.empty()) << n;
    EXPECT_TRUE(v.cleared.empty()) << n;
  }
}

// Identical links whose pairs spread from 0.85 to 1.15 x (congested rounds, a CPU-bound
// transport): a quarter of them fall under 0.93 x the median, yet none stands out of the spread.
double wide_spread(int a, int b) {
  return 0.85 + 0.03 * ((a * 7 + b * 13) % 11);
}

TEST(PairNaming, ANoisyFleetOfIdenticalLinksNamesNothing) {
  for (int n : {6, 16, 64}) {
    Fleet f = uniform(n, 12.0);
    f.noise = wide_spread;
    std::vector<MemberPairFigure> figures;
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b)
        figures.push_back({a, b, f.pair(a, b) * f.noise(a, b)});
    }
    // Among 6 the members whose dips are most of their pairs leave too few clean pairs to show
    // the spread; their retests, free of the dips, clear them instead.
    if (n >= 16) {
      EXPECT_TRUE(PairNaming(n, figures, bandwidth_rule()).noisy_fleet()) << n;
    }
    const PairVerdicts v = second_pass(f);
    EXPECT_TRUE(v.nodes.empty()) << n;
    EXPECT_TRUE(v.links.empty()) << n;
  }
}

TEST(PairNaming, ASlowNodeStandsOutOfANoisyFleet) {
  for (int n : {6, 16, 64}) {
    Fleet f = uniform(n, 12.0);
    f.noise = wide_spread;
    const int slow = n / 2;
    f.rate[static_cast<std::size_t>(slow)] = 4.0;
    const PairVerdicts v = second_pass(f);
    EXPECT_EQ(v.nodes, std::vector<int>{slow}) << n;
    EXPECT_TRUE(v.links.empty()) << n;
  }
}

TEST(PairNaming, EverySuspectPairOfTheSlowNodeIsExplainedByIt) {
  Fleet f = uniform(16, 10.0);
  f.rate[0] = 5.0;
  std::vector<MemberPairFigure> figures;
  for (int a = 0; a < 16; ++a) {
    for (int b = a + 1; b < 16; ++b)
      figures.push_back({a, b, f.pair(a, b)});
  }
  const PairNaming naming(16, figures, bandwidth_rule());
  EXPECT_EQ(naming.suspects().size(), 15u); // all of node 0's pairs
  EXPECT_FALSE(naming.good(0));
  for (int m = 1; m < 16; ++m)
    EXPECT_TRUE(naming.good(m));
  // Node 0 against two good partners; its partners are good and never named, so not retested.
  EXPECT_EQ(naming.end_retests().size(), 2u);
  for (const auto& e : naming.end_retests())
    EXPECT_EQ(e.member, 0);
}

TEST(PairNaming, OneBadLinkIsNamedAsTheLinkNotItsEnds) {
  for (int n : {6, 16, 128}) {
    Fleet f = uniform(n, 12.0);
    f.link = [](int a, int b) { return (a == 2 && b == 4) || (a == 4 && b == 2) ? 0.5 : 1.0; };
    const PairVerdicts v = second_pass(f);
    EXPECT_TRUE(v.nodes.empty()) << n;
    EXPECT_EQ(v.links, (std::vector<MemberPair>{{2, 4}})) << n;
  }
}

TEST(PairNaming, ACleanFleetNamesNothingAndRetestsNothing) {
  for (int n : {2, 6, 16, 128}) {
    Fleet f = uniform(n, 12.0);
    // Spread within the tolerance: up to 5 % below the median.
    f.noise = [](int a, int b) { return 1.0 - 0.05 * ((a * 7 + b * 3) % 5) / 4.0; };
    const PairVerdicts v = second_pass(f);
    EXPECT_TRUE(v.nodes.empty()) << n;
    EXPECT_TRUE(v.links.empty()) << n;
    EXPECT_TRUE(v.cleared.empty()) << n;
  }
}

TEST(PairNaming, ATransientDipIsClearedByItsOwnRetest) {
  Fleet f = uniform(8, 12.0);
  f.noise = [](int a, int b) { return a == 1 && b == 5 ? 0.6 : 1.0; }; // first pass only
  const PairVerdicts v = second_pass(f);
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_TRUE(v.links.empty());
  EXPECT_EQ(v.cleared, (std::vector<MemberPair>{{1, 5}}));
  // Both ends are good, and a good member is never named: the pair's own retest, alone, is all
  // the second pass measures.
  const PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  EXPECT_TRUE(naming.end_retests().empty());
  EXPECT_TRUE(naming.end_rounds().empty());
}

TEST(PairNaming, AGoodMemberSlowOnlyInItsRetestsIsNotNamed) {
  // One noisy first-pass pair (1, 5). Most of member 1's own pairs passed, so it is not named
  // whatever its retests would say (it gets none); the pair's own retest passes: cleared.
  std::vector<MemberPairFigure> figures;
  for (int a = 0; a < 6; ++a) {
    for (int b = a + 1; b < 6; ++b)
      figures.push_back({a, b, a == 1 && b == 5 ? 6.0 : 12.0});
  }
  PairNaming naming(6, figures, bandwidth_rule());
  EXPECT_TRUE(naming.end_retests().empty());
  naming.record_end_retests({});
  EXPECT_FALSE(naming.member_slow(1));
  ASSERT_EQ(naming.pair_retests(), (std::vector<MemberPair>{{1, 5}}));
  naming.record_pair_retests({12.0});
  const PairVerdicts v = naming.verdicts();
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_TRUE(v.links.empty());
  EXPECT_EQ(v.cleared, (std::vector<MemberPair>{{1, 5}}));
}

TEST(PairNaming, LatencyRuleNamesTheNodeWithHighLatency) {
  Fleet f = uniform(6, 1.0);
  // As latencies: a pair takes the larger of its ends' figures (lower is better).
  std::vector<double> latency(6, 20.0);
  latency[3] = 90.0; // over 2.1 x the lowest pair
  std::vector<MemberPairFigure> figures;
  for (int a = 0; a < 6; ++a) {
    for (int b = a + 1; b < 6; ++b)
      figures.push_back(
          {a, b,
           std::max(latency[static_cast<std::size_t>(a)], latency[static_cast<std::size_t>(b)])});
  }
  PairNaming naming(6, figures, latency_rule());
  std::vector<double> ends;
  for (const auto& e : naming.end_retests())
    ends.push_back(std::max(latency[static_cast<std::size_t>(e.member)],
                            latency[static_cast<std::size_t>(e.partner)]));
  naming.record_end_retests(ends);
  naming.record_pair_retests(std::vector<double>(naming.pair_retests().size(), 20.0));
  EXPECT_EQ(naming.verdicts().nodes, std::vector<int>{3});
  EXPECT_DOUBLE_EQ(naming.reference(), 20.0);
}

TEST(PairNaming, TwoMembersCannotTellWhichEndIsBad) {
  // With one pair the fleet is that pair: nothing is outside its own median.
  Fleet f = uniform(2, 12.0);
  f.rate[1] = 1.0;
  const PairVerdicts v = second_pass(f);
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_TRUE(v.links.empty());
}

TEST(PairNaming, VerdictsNeedBothStages) {
  PairNaming naming(3, {{0, 1, 1.0}, {0, 2, 1.0}, {1, 2, 1.0}}, bandwidth_rule());
  EXPECT_THROW(naming.verdicts(), std::logic_error);
  EXPECT_THROW(naming.record_pair_retests({}), std::logic_error);
  EXPECT_THROW(naming.record_end_retests({1.0}), std::invalid_argument);
  EXPECT_THROW(PairNaming(2, {{0, 2, 1.0}}, bandwidth_rule()), std::out_of_range);
}

// Each stage's rounds: at most the cap, every retest in exactly one round, no member twice in one.
void expect_rounds(const std::vector<std::vector<std::size_t>>& rounds,
                   const std::vector<MemberPair>& pairs, const std::string& what) {
  EXPECT_LE(rounds.size(), PairNaming::kMaxRetestRounds) << what;
  std::vector<int> seen(pairs.size(), 0);
  for (const auto& round : rounds) {
    std::set<int> busy;
    for (std::size_t i : round) {
      ASSERT_LT(i, pairs.size()) << what;
      ++seen[i];
      EXPECT_TRUE(busy.insert(pairs[i].first).second) << what;
      EXPECT_TRUE(busy.insert(pairs[i].second).second) << what;
    }
  }
  for (int c : seen)
    EXPECT_EQ(c, 1) << what;
}

std::vector<MemberPair> end_pairs(const PairNaming& naming) {
  std::vector<MemberPair> out;
  for (const auto& e : naming.end_retests())
    out.emplace_back(e.member, e.partner);
  return out;
}

// A fleet of 1,024 identical nodes whose pairs spread by ~4 % (within the 10 % that makes a
// fleet noisy): about one pair in twenty falls under 0.93 x the median, some 26,000 pairs. One at
// a time their retests would outlast the first pass; capped, each stage is at most 8 rounds, the
// pairs left out are unresolved (never named), and nothing is named.
TEST(PairNaming, ANoisyFleetOf1024StaysWithinTheRoundCap) {
  const int n = 1024;
  std::vector<MemberPairFigure> figures;
  Xorshift64 uniform01{88172645463325252ull};
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const double z = (uniform01() + uniform01() + uniform01() - 1.5) * 2.0; // sd ~1
      figures.push_back({a, b, 12.0 * (1.0 + 0.04 * z)});
    }
  }
  PairNaming naming(n, figures, bandwidth_rule());
  EXPECT_FALSE(naming.noisy_fleet());
  EXPECT_GT(naming.suspects().size(), 10000u);
  expect_rounds(naming.end_rounds(), end_pairs(naming), "ends");
  naming.record_end_retests(std::vector<double>(naming.end_retests().size(), 12.0));
  EXPECT_FALSE(naming.pair_retests_alone());
  expect_rounds(naming.pair_rounds(), naming.pair_retests(), "pairs");
  EXPECT_GT(naming.beyond_cap().pair_retests, 0u);
  // The worst pair goes first, and a pair is left out only when every round already holds one of
  // its ends (the rounds are full for it, not skipped).
  double worst = 1e300;
  for (const auto& fig : figures)
    worst = std::min(worst, fig.value);
  const MemberPair first = naming.pair_retests().at(naming.pair_rounds().at(0).at(0));
  std::vector<std::set<int>> busy;
  for (const auto& round : naming.pair_rounds()) {
    busy.emplace_back();
    for (std::size_t i : round) {
      busy.back().insert(naming.pair_retests()[i].first);
      busy.back().insert(naming.pair_retests()[i].second);
    }
  }
  naming.record_pair_retests(std::vector<double>(naming.pair_retests().size(), 12.0));
  const PairVerdicts v = naming.verdicts();
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_TRUE(v.links.empty());
  EXPECT_EQ(v.cleared.size(), naming.pair_retests().size());
  EXPECT_EQ(v.unresolved.size(), naming.suspects().size() - naming.pair_retests().size());
  for (const auto& fig : figures) {
    if (fig.value == worst) {
      EXPECT_EQ(first, (MemberPair{fig.a, fig.b}));
    }
  }
  ASSERT_EQ(busy.size(), PairNaming::kMaxRetestRounds);
  for (const auto& [a, b] : v.unresolved) {
    for (const auto& round : busy)
      ASSERT_TRUE(round.count(a) || round.count(b)) << a << "-" << b << " fitted a round";
  }
}

TEST(PairNaming, OneSlowNodeOf1024IsNamedWithinTheRoundCap) {
  Fleet f = uniform(1024, 12.0);
  f.rate[700] = 4.0;
  PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  expect_rounds(naming.end_rounds(), end_pairs(naming), "ends");
  // The slow node, with the most suspect pairs, is retested in the first round.
  ASSERT_FALSE(naming.end_rounds().empty());
  EXPECT_EQ(naming.end_retests()[naming.end_rounds()[0][0]].member, 700);
  retest_ends(naming, f);
  EXPECT_TRUE(naming.pair_retests().empty());
  naming.record_pair_retests({});
  const PairVerdicts v = naming.verdicts();
  EXPECT_EQ(v.nodes, std::vector<int>{700});
  EXPECT_TRUE(v.links.empty());
  EXPECT_TRUE(v.unresolved.empty());
}

TEST(PairNaming, AFewPairRetestsAreMeasuredAloneManyInRounds) {
  // Three bad links among 16: alone, one round each, the worst first.
  Fleet f = uniform(16, 12.0);
  f.link = [](int a, int b) {
    const MemberPair p{std::min(a, b), std::max(a, b)};
    return p == MemberPair{1, 2}   ? 0.8
           : p == MemberPair{3, 9} ? 0.5
           : p == MemberPair{5, 6} ? 0.7
                                   : 1.0;
  };
  PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  retest_ends(naming, f);
  EXPECT_TRUE(naming.pair_retests_alone());
  EXPECT_EQ(naming.pair_retests(), (std::vector<MemberPair>{{3, 9}, {5, 6}, {1, 2}}));
  EXPECT_EQ(naming.pair_rounds().size(), 3u);
}

// 31 members, 6 of them good; among the other 25, 73 % of the links are bad (a fixed hash picks
// them), so each has more than half of its pairs suspect. Their 50 end retests on 6 good partners
// need more rounds than the cap, and greedy packing keeps one retest of some ends and not the
// other. An end is retested whole or not at all, so no member is judged on a single retest; the
// ends left out leave their pairs unresolved.
TEST(PairNaming, AnEndIsRetestedWholeOrNotAtAll) {
  Fleet f = uniform(31, 12.0);
  f.link = [](int a, int b) {
    const std::uint64_t hash =
        3010925886490453453ull ^ (static_cast<std::uint64_t>(std::min(a, b)) * 1315423911u +
                                  static_cast<std::uint64_t>(std::max(a, b)) * 2654435761u);
    return a >= 6 && b >= 6 && hash % 100 < 73 ? 0.5 : 1.0;
  };
  PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  expect_rounds(naming.end_rounds(), end_pairs(naming), "ends");
  EXPECT_EQ(naming.end_rounds().size(), PairNaming::kMaxRetestRounds);
  EXPECT_GT(naming.beyond_cap().end_retests, 0u);
  std::map<int, std::size_t> retests_of;
  for (const auto& e : naming.end_retests())
    ++retests_of[e.member];
  EXPECT_GE(retests_of.size(), 20u);
  for (const auto& [member, count] : retests_of)
    EXPECT_EQ(count, PairNaming::kPartners) << "member " << member;
  retest_ends(naming, f);
  std::vector<double> again;
  for (const auto& [a, b] : naming.pair_retests())
    again.push_back(f.pair(a, b));
  naming.record_pair_retests(again);
  const PairVerdicts v = naming.verdicts();
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_FALSE(v.unresolved.empty());
}

// A bad batch of NICs or a bad leaf switch: 5 of 17 nodes at a third of the rate. 70 of the 136
// pairs are slow, so the median pair is a slow one and 0.93 x it names nothing; against the
// typical pair (each node's median pair, their median) the 5 are named and nothing else.
TEST(PairNaming, FiveSlowNodesOf17AreNamedThoughMostPairsAreSlow) {
  Fleet f = uniform(17, 12.0);
  const std::vector<int> slow = {1, 4, 8, 11, 15};
  for (int m : slow)
    f.rate[static_cast<std::size_t>(m)] = 4.0;
  PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  EXPECT_DOUBLE_EQ(naming.reference(), 12.0);
  EXPECT_EQ(naming.better_pairs(), 0u);
  const PairVerdicts v = second_pass(f);
  EXPECT_EQ(v.nodes, slow);
  EXPECT_TRUE(v.links.empty());
  EXPECT_TRUE(v.unresolved.empty());
}

TEST(PairNaming, SlowNodesAreNamedUpToJustUnderHalfTheFleet) {
  // k slow of n: each healthy node's median pair stays healthy while 2k < n - 1.
  for (int n : {6, 16, 33}) {
    const int k = (n - 2) / 2;
    Fleet f = uniform(n, 12.0);
    std::vector<int> slow;
    for (int i = 0; i < k; ++i) {
      slow.push_back(2 * i);
      f.rate[static_cast<std::size_t>(2 * i)] = 4.0;
    }
    EXPECT_EQ(second_pass(f).nodes, slow) << k << " of " << n;
  }
}

// 10 of 17 slow: every node's median pair is slow, so the typical pair is, and the rule sees a
// uniform slow fleet. What gives it away is the 21 pairs among the 7 healthy nodes, better than the
// typical pair beyond the tolerance: the tier is not uniform, and the record says by whom.
TEST(PairNaming, ASlowMajorityShowsAsATierThatIsNotUniform) {
  Fleet f = uniform(17, 12.0);
  std::vector<int> healthy;
  for (int m = 0; m < 17; ++m) {
    if (m % 5 == 0 || m % 7 == 0)
      healthy.push_back(m); // 0 5 7 10 14 15
    else
      f.rate[static_cast<std::size_t>(m)] = 4.0;
  }
  healthy.push_back(16);
  f.rate[16] = 12.0;
  ASSERT_EQ(healthy.size(), 7u);
  std::sort(healthy.begin(), healthy.end());
  PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  EXPECT_DOUBLE_EQ(naming.reference(), 4.0);
  EXPECT_EQ(naming.better_pairs(), 21u);
  EXPECT_EQ(naming.better_members(), healthy);
  EXPECT_TRUE(second_pass(f).nodes.empty());
}

TEST(PairNaming, UniformAndLatencyFleetsHaveNoBetterPairs) {
  Fleet f = uniform(16, 12.0);
  f.noise = [](int a, int b) { return 1.0 + 0.05 * ((a * 7 + b * 3) % 5) / 4.0; }; // within 5 %
  std::vector<MemberPairFigure> figures;
  for (int a = 0; a < f.n; ++a) {
    for (int b = a + 1; b < f.n; ++b)
      figures.push_back({a, b, f.pair(a, b) * f.noise(a, b)});
  }
  EXPECT_EQ(PairNaming(f.n, figures, bandwidth_rule()).better_pairs(), 0u);
  // Latency's reference is the lowest pair: nothing can beat it.
  EXPECT_EQ(PairNaming(f.n, figures, latency_rule()).better_pairs(), 0u);
  EXPECT_TRUE(PairNaming(f.n, figures, latency_rule()).better_members().empty());
}

TEST(PairNaming, TheTypicalPairIsTheMedianPairUnlessSlowMembersPulledItDown) {
  // Member medians: 0 -> {1, 2, 9} = 2; 1 -> {1, 3, 4} = 3; 2 -> {2, 3, 5} = 3; 3 -> {9, 4, 5} = 5:
  // their median 3, under the median of the six pairs, 3.5.
  const std::vector<MemberPairFigure> figures = {{0, 1, 1}, {0, 2, 2}, {0, 3, 9},
                                           {1, 2, 3}, {1, 3, 4}, {2, 3, 5}};
  EXPECT_DOUBLE_EQ(pair_reference(bandwidth_rule(), figures, 4), 3.5);
  EXPECT_DOUBLE_EQ(pair_reference(latency_rule(), figures, 4), 1.0);
  EXPECT_DOUBLE_EQ(pair_reference(bandwidth_rule(), {}, 4), 0.0);
  // Two slow members of 5: 7 of 10 pairs at 4, so the median pair is 4. Each healthy member has
  // pairs {4, 4, 12, 12}, taken at the upper middle, 12 (their mean, 8, would sit between the
  // levels); the slow ones 4, and slow with each other: the members' median, 12.
  Fleet f = uniform(5, 12.0);
  f.rate[0] = f.rate[1] = 4.0;
  EXPECT_DOUBLE_EQ(pair_reference(bandwidth_rule(), first_pass(f), 5), 12.0);
  PairNaming naming(5, first_pass(f), bandwidth_rule());
  EXPECT_EQ(naming.better_pairs(), 0u);
  EXPECT_EQ(second_pass(f).nodes, (std::vector<int>{0, 1}));
}

// Two leaf switches of a healthy fabric, 9 and 7 (or 10 and 6) nodes, the pairs across them 8 %
// slower than those inside. The larger leaf's members take the inside level as their median,
// which lifts the members' median; but the smaller leaf is fast inside, so its members are not
// slow nodes, and the reference stays the median pair: nobody is named.
TEST(PairNaming, TwoLeafSwitchesOfAHealthyFabricNameNoNode) {
  for (int small : {7, 6}) {
    Fleet f = uniform(16, 12.0);
    f.link = [small](int a, int b) { return (a < small) != (b < small) ? 0.92 : 1.0; };
    const PairVerdicts v = second_pass(f);
    EXPECT_TRUE(v.nodes.empty()) << small;
  }
}

// From a split of about 11 and 5 on, most pairs are inside a leaf and the median pair is an
// inside one: the smaller leaf's nodes are slow with every good partner (all on the larger leaf),
// as slow nodes would be. But they are fast with one another, as slow nodes are not: they are a
// group behind a switch, the split explains their pairs across, and no node is named.
TEST(PairNaming, TheSmallerOfTwoLeavesIsAGroupNotSlowNodes) {
  for (int small : {5, 4, 3, 2}) {
    Fleet f = uniform(16, 12.0);
    f.link = [small](int a, int b) { return (a < small) != (b < small) ? 0.92 : 1.0; };
    const PairVerdicts v = second_pass(f);
    std::vector<int> leaf(static_cast<std::size_t>(small));
    std::iota(leaf.begin(), leaf.end(), 0);
    EXPECT_TRUE(v.nodes.empty()) << small;
    EXPECT_EQ(v.groups, std::vector<std::vector<int>>{leaf}) << small;
    EXPECT_EQ(v.split_pairs, static_cast<std::size_t>(small * (16 - small))) << small;
    EXPECT_TRUE(v.links.empty()) << small;
    EXPECT_TRUE(v.unresolved.empty()) << small;
  }
  // Alone behind its switch, a node cannot be told from a slow one: it is named.
  Fleet f = uniform(16, 12.0);
  f.link = [](int a, int b) { return (a == 0) != (b == 0) ? 0.92 : 1.0; };
  const PairVerdicts v = second_pass(f);
  EXPECT_EQ(v.nodes, std::vector<int>{0});
  EXPECT_TRUE(v.groups.empty());
}

TEST(PairNaming, StageOneRecordedAgainFindsTheGroupsAfresh) {
  Fleet f = uniform(16, 12.0);
  f.link = [](int a, int b) { return (a < 4) != (b < 4) ? 0.92 : 1.0; };
  PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  retest_ends(naming, f);
  retest_ends(naming, f);
  naming.record_pair_retests(std::vector<double>(naming.pair_retests().size(), 12.0));
  EXPECT_EQ(naming.verdicts().groups, (std::vector<std::vector<int>>{{0, 1, 2, 3}}));
}

// A slow node on the smaller leaf is slow with its leaf too: it is named, and the rest of its
// leaf is the group.
TEST(PairNaming, ASlowNodeInsideTheSmallerLeafIsStillNamed) {
  Fleet f = uniform(16, 12.0);
  f.link = [](int a, int b) { return (a < 5) != (b < 5) ? 0.92 : 1.0; };
  f.rate[2] = 4.0;
  const PairVerdicts v = second_pass(f);
  EXPECT_EQ(v.nodes, std::vector<int>{2});
  EXPECT_EQ(v.groups, (std::vector<std::vector<int>>{{0, 1, 3, 4}}));
  EXPECT_TRUE(v.links.empty());
}

// Cross pairs just under the tolerance: the smaller leaf's retests pass by noise, so none of its
// nodes is slow, but most of their pairs are suspect (they are not good) and they are fast with
// one another: still the group, and their pairs across are explained by it, not remeasured and
// named as 55 links.
TEST(PairNaming, ALeafWhoseRetestsPassIsStillTheGroupNotFiftyFiveLinks) {
  Fleet f = uniform(16, 12.0);
  f.link = [](int a, int b) { return (a < 5) != (b < 5) ? 0.92 : 1.0; };
  PairNaming naming(f.n, first_pass(f), bandwidth_rule());
  naming.record_end_retests(std::vector<double>(naming.end_retests().size(), 11.3));
  EXPECT_TRUE(naming.pair_retests().empty());
  naming.record_pair_retests({});
  const PairVerdicts v = naming.verdicts();
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_TRUE(v.links.empty());
  EXPECT_EQ(v.groups, (std::vector<std::vector<int>>{{0, 1, 2, 3, 4}}));
  EXPECT_EQ(v.split_pairs, 55u);
}

// A large leaf of 16 and two small ones of 4, every pair between leaves 10 % slower, and one pair
// between the small leaves lifted over the tolerance by noise: its ends share no fast partner, so
// it does not merge the small leaves, and each is its own group. (Merged, each member's own
// median pair would be a slow one across, and all 8 healthy nodes would be named.)
TEST(PairNaming, OneNoisyPairBetweenTwoSmallLeavesDoesNotMergeThem) {
  Fleet f = uniform(24, 12.0);
  const auto leaf = [](int m) { return m < 16 ? 0 : m < 20 ? 1 : 2; };
  f.link = [leaf](int a, int b) { return leaf(a) != leaf(b) ? 0.9 : 1.0; };
  f.noise = [](int a, int b) { return a == 16 && b == 20 ? 11.2 / 10.8 : 1.0; };
  const PairVerdicts v = second_pass(f);
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_EQ(v.groups, (std::vector<std::vector<int>>{{16, 17, 18, 19}, {20, 21, 22, 23}}));
  EXPECT_EQ(v.split_pairs, 143u); // 64 + 64 + 16 - 1
  EXPECT_TRUE(v.links.empty());
}

// Latency: a pair is suspect over 2.1 x the lowest pair, an extreme a large fleet pushes down (here
// one freak pair at 0.6 x the typical 2 us). A leaf of 5 whose pairs across take 2.6 us is
// suspect (over 2.52) though its pairs inside are typical: it is the group, judged against the
// typical pair (clearly fast under the middle of 2.0 and 2.52), not against 1.55 x the freak.
TEST(PairNaming, ALatencyLeafIsAGroupThoughTheLowestPairIsFarBelowTheTypical) {
  Fleet f = uniform(16, 2.0);
  f.link = [](int a, int b) {
    if (a == 8 && b == 9)
      return 0.6;
    return (a < 5) != (b < 5) ? 1.3 : 1.0;
  };
  const PairVerdicts v = second_pass(f, latency_rule());
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_EQ(v.groups, (std::vector<std::vector<int>>{{0, 1, 2, 3, 4}}));
  EXPECT_EQ(v.split_pairs, 55u);
}

// A bad cable between two nodes of the smaller leaf: their pair is retested as a pair (their
// ends' retests were all across the split) and named as a link; the leaf is still the group.
TEST(PairNaming, ABadLinkInsideAGroupIsNamedAsALink) {
  Fleet f = uniform(16, 12.0);
  f.link = [](int a, int b) {
    if (a == 1 && b == 3)
      return 0.5;
    return (a < 5) != (b < 5) ? 0.92 : 1.0;
  };
  const PairVerdicts v = second_pass(f);
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_EQ(v.groups, (std::vector<std::vector<int>>{{0, 1, 2, 3, 4}}));
  EXPECT_EQ(v.links, (std::vector<MemberPair>{{1, 3}}));
  EXPECT_TRUE(v.unresolved.empty());
  EXPECT_EQ(v.split_pairs, 55u);
}

// A node just under the tolerance on the smaller leaf, one of whose pairs with its leaf noise
// lifted over it: its own median pair inside the leaf is still slow, so it is named, and the rest
// of its leaf is the group.
TEST(PairNaming, AMildlySlowNodeThatOneNoisyPairJoinedToItsLeafIsNamed) {
  Fleet f = uniform(16, 12.0);
  f.link = [](int a, int b) { return (a < 5) != (b < 5) ? 0.92 : 1.0; };
  f.rate[2] = 11.0;
  f.noise = [](int a, int b) { return a == 2 && b == 3 ? 11.2 / 11.0 : 1.0; };
  const PairVerdicts v = second_pass(f);
  EXPECT_EQ(v.nodes, std::vector<int>{2});
  EXPECT_EQ(v.groups, (std::vector<std::vector<int>>{{0, 1, 3, 4}}));
}

// In a fleet whose pairs spread by about 20 %, a pair is suspect only as a robust-z outlier too;
// a pair between two slow nodes that is no outlier is still no fast one, and joins nothing.
TEST(PairNaming, InANoisyFleetTwoSlowNodesArePairedOnlyByAFastPair) {
  Fleet f = uniform(16, 12.0);
  f.rate[4] = f.rate[9] = 3.0;
  f.noise = [](int a, int b) {
    if (a == 4 && b == 9)
      return 8.0 / 3.0; // 8.0: under 0.93 x 12, within 3.5 robust deviations of it
    return 1.0 + 0.2 * (((a * 7 + b * 13) % 11) - 5) / 5.0;
  };
  PairNaming naming(f.n, first_pass_with_noise(f), bandwidth_rule());
  ASSERT_TRUE(naming.noisy_fleet());
  ASSERT_FALSE(naming.outside(8.0));
  const PairVerdicts v = second_pass(f);
  EXPECT_EQ(v.nodes, (std::vector<int>{4, 9}));
  EXPECT_TRUE(v.groups.empty());
}

// Slow nodes just under the tolerance, a few of whose pairs with one another pass by noise: they
// are as slow inside such a "group" as across it, so it does not stand and they are named. Two
// slow nodes well under it are named too (their pair with each other is slow).
TEST(PairNaming, SlowNodesThatANoisyPassJoinsAreStillNamed) {
  // Passes 0-1, 1-2 and 2-3: the median pair among the four is outside. Passes 0-1 and 1-2: the
  // median pair among 0, 1, 2 passes, but their pairs across are within the tolerance of it.
  for (const int last : {3, 2}) {
    Fleet f = uniform(16, 12.0);
    for (int m : {0, 1, 2, 3})
      f.rate[static_cast<std::size_t>(m)] = 11.0; // 0.917 x: under 0.93
    f.noise = [last](int a, int b) { return (b <= last && b == a + 1) ? 11.2 / 11.0 : 1.0; };
    const PairVerdicts v = second_pass(f);
    EXPECT_EQ(v.nodes, (std::vector<int>{0, 1, 2, 3})) << last;
    EXPECT_TRUE(v.groups.empty()) << last;
    EXPECT_EQ(v.split_pairs, 0u) << last;
  }
  PairVerdicts v;

  Fleet two = uniform(16, 12.0);
  two.rate[3] = two.rate[9] = 4.0;
  v = second_pass(two);
  EXPECT_EQ(v.nodes, (std::vector<int>{3, 9}));
  EXPECT_TRUE(v.groups.empty());
}

// Healthy fleets whose pairs spread by 2-4 % (under the 10 % that makes a fleet noisy): thousands
// of pairs lie 7.5 % over the median at 1,024 nodes, but none stands out of the spread, and no
// dense group is left: the tier is uniform.
TEST(PairNaming, NoiseLeavesNoBetterGroupAt32And1024Members) {
  Xorshift64 uniform01{2463534242ull};
  for (const int n : {32, 1024}) {
    for (const double spread : {0.02, 0.03, 0.04}) {
      std::vector<MemberPairFigure> figures;
      for (int a = 0; a < n; ++a) {
        for (int b = a + 1; b < n; ++b) {
          const double z = (uniform01() + uniform01() + uniform01() - 1.5) * 2.0; // sd ~1
          figures.push_back({a, b, 12.0 * (1.0 + spread * z)});
        }
      }
      const PairNaming naming(n, figures, bandwidth_rule());
      EXPECT_FALSE(naming.noisy_fleet()) << n << " " << spread;
      EXPECT_EQ(naming.better_pairs(), 0u) << n << " " << spread;
      EXPECT_TRUE(naming.better_members().empty()) << n << " " << spread;
    }
  }
}

} // namespace
} // namespace cb
