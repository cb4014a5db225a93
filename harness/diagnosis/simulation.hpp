#pragma once
// `clusterbench simulate`: a schedule of the pair tests run against the fabric model of a
// scenario, then the diagnosis over what it measured.
#include <optional>
#include <string>
#include <vector>

#include "diagnosis/diagnosis.hpp"
#include "diagnosis/scenario.hpp"
#include "diagnosis/schedules.hpp"

namespace cb {

// Above this many figures (rounds at 4,096 nodes of 8 GPUs would be 134 million) a schedule is
// priced, not simulated: its figures would not fit in memory.
inline constexpr long long kMaxSimulatedFigures = 16'000'000;

struct SimulationView {
  // The leaf of each host as the schedule and the diagnosis see it: the scenario's own, a
  // topology file's, or the screen's sqrt groups when no topology is known.
  std::vector<int> leaf_of_node;
  bool topology_known = true;
};

SimulationView scenario_view(const Scenario& scenario);
SimulationView blind_view(const Scenario& scenario);

struct SimulationResult {
  PairsMode pairs = PairsMode::screen;
  long long tests = 0;
  long long rounds = 0;
  double seconds = 0;
  bool simulated = true; // false: too large, priced only
  std::optional<Diagnosis> diagnosis;
  std::vector<std::string> notes;
};

SimulationResult simulate(const Scenario& scenario, const SimulationView& view, PairsMode pairs,
                          double seconds_per_round, const ScreenSettings& screen = {},
                          const DiagnosisSettings& diagnosis = {});

} // namespace cb
