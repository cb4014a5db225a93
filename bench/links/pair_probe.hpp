#pragma once
// How a pair test moves data (PairProbe) and what its rounds measured (PairTimes): shared by the
// round-robin rounds, the second pass and the screen (bench/links/pair_run.hpp), and by the cases
// that define the probe (pair_bw, pair_latency).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/case.hpp"

namespace cb {

// What every rank does before a round, this rank's seconds for k operations of its pair, and this
// rank's wrong values after it. `directed`: a pair is measured in both orders (a one-way copy, a
// ping-pong started by each end), in consecutive sub-rounds.
struct PairProbe {
  using Pair = std::pair<int, int>;
  std::function<void()> before;
  std::function<double(Pair, int)> timed;
  std::function<long long(Pair)> check;
  bool directed = false;
  bool latency = false; // timed with latency_settings(): more operations per sample
  // Why the figures across nodes are measured but not judged (no second pass, no screen): the
  // record says so and nothing is named from them. Empty: judged.
  std::string not_judged_across_nodes;
};

struct PairTimes {
  using Pair = std::pair<int, int>;
  std::vector<Pair> pairs;      // rank 0: as measured, (source, destination) when directed
  std::vector<int> round_of;    // rank 0: the schedule round each pair ran in
  std::vector<double> median_s; // rank 0: each pair's median seconds per operation
  int rounds = 0;               // schedule rounds (a directed round is two sub-rounds)
  int capped = 0;  // measured (sub-)rounds whose sampling hit the time cap (or sample limit)
  int settled = 0; // those that stopped with their spread settled above the cv target
  std::vector<double> sampling_s; // rank 0: each measured (sub-)round's sampling seconds
  std::vector<double> samples;    // rank 0: and its sample count
  long long wrong = 0;            // summed over the group
};

// LinksCase::measure_rounds (bench/links/links_case.hpp says what it does).
PairTimes
measure_pair_rounds(const CaseContext& ctx, int rounds,
                    const std::function<std::vector<std::pair<int, int>>(int)>& round_pairs,
                    const PairProbe& probe, const std::function<void(int)>& on_round = {},
                    const std::function<int(int)>& unit_of = {},
                    const std::function<void(std::pair<int, int>, double)>& each_pair = {});

} // namespace cb
