#pragma once
// The schedules of the pair tests across nodes, over any PairOracle (the real pair tests or the
// fabric model): the round-robin `rounds` (every node pair, n - 1 rounds), `sequential` (one pair
// a round) and the sublinear `screen`. docs/DIAGNOSIS.md describes the screen and its costs.
#include <string>
#include <vector>

#include "diagnosis/observation.hpp"
#include "links/pair_schedule.hpp"

namespace cb {

struct ScreenSettings {
  // Partners each node meets inside its group, as sender and as receiver (ring shifts 1..k): the
  // documented k. Four is the fewest at which one slow partner is a quarter of a node's figures
  // and two adjacent slow ones are still under half, so a median never convicts a neighbour.
  int inside_partners = 4;
  // Partner groups each group meets across (shifts 1..k between groups), both ways: four distinct
  // groups when there are five or more, so a slow uplink is slow with all of them and a healthy
  // group next to it with one in four.
  int across_partners = 2;
  // Known-good partners a suspect node is confirmed against, both ways, inside its group.
  int confirm_partners = 2;
  double tolerance = 0.9; // a figure is suspect below this times the typical one (and 4 sigma)
};

// Consecutive groups of ceil(sqrt(n)) nodes: the screen's groups when no topology is known.
std::vector<int> sqrt_groups(int nodes);

// The screen: (1) every group at once, a ring test per group per shift (each node sending to the
// node `shift` places on and receiving from the one as far back); (2) the groups against each
// other, node i of group g to a node of group g + t, for t = 1..across_partners; (3) for a group
// whose nodes are mostly suspect (no known-good partner inside), bisection: each half measured
// as a ring, all such groups at once, a half that passes cleared, one that fails split again, and
// a group that failed while both its halves passed probed across the halves; (4) each remaining
// suspect (an end of a slow figure) measured against known-good partners, both ways.
Measurements run_screen(PairOracle& oracle, const std::vector<int>& group_of_node,
                        const ScreenSettings& settings);

// Every node pair, both ways at once, in the round-robin schedule's rounds (bench/links
// pair_schedule), or one pair a round (`sequential`).
Measurements run_all_pairs(PairOracle& oracle, bool sequential);

// From this many nodes a pair test without --pairs screens across nodes: below it the n - 1
// rounds are few (15 at 16 nodes) and give every node pair.
inline constexpr int kScreenFromNodes = 16;

// The schedule a pair test runs: `requested` (--pairs) when given, else "screen" from
// kScreenFromNodes nodes on and "rounds" below.
std::string pair_schedule_for(const std::string& requested, int nodes);

// A screen round's flows as sub-rounds the engine can measure at once, no node in two pairs of
// one: a ring shift is cycles of sends (each node sending to one, receiving from another), whose
// edges colour in two (an even cycle) or three (an odd one). A flow whose reverse is in the round
// too is one node pair (measured both ways by a directed probe, or at once by a symmetric one).
// Each pair keeps the orientation of its first flow.
std::vector<std::vector<MemberPair>> disjoint_sub_rounds(const std::vector<Flow>& flows);

// What run_all_pairs would cost without measuring: tests (node pairs) and rounds.
void all_pairs_cost(int nodes, bool sequential, long long& tests, long long& rounds);

} // namespace cb
