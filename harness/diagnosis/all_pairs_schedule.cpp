#include "links/pair_schedule.hpp"

#include "diagnosis/schedules.hpp"

namespace cb {

Measurements run_all_pairs(PairOracle& oracle, bool sequential) {
  Measurements m;
  const int n = oracle.nodes();
  for (int round = 0; round < circle_round_count(n); ++round) {
    std::vector<Flow> flows;
    for (const auto& [a, b] : circle_round(n, round)) {
      if (sequential) {
        measure_round(oracle, {{a, b}, {b, a}}, 1, m);
      } else {
        flows.push_back({a, b});
        flows.push_back({b, a});
      }
    }
    if (!sequential)
      measure_round(oracle, flows, static_cast<long long>(flows.size() / 2), m);
  }
  return m;
}

void all_pairs_cost(int nodes, bool sequential, long long& tests, long long& rounds) {
  tests = static_cast<long long>(nodes) * (nodes - 1) / 2;
  rounds = sequential ? tests : circle_round_count(nodes);
}

} // namespace cb
