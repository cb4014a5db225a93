#include "diagnosis/simulation.hpp"

#include <algorithm>

#include "diagnosis/fabric_model.hpp"

namespace cb {

SimulationView scenario_view(const Scenario& scenario) {
  SimulationView view;
  for (int h = 0; h < scenario.nodes; ++h)
    view.leaf_of_node.push_back(h / scenario.leaf_nodes);
  return view;
}

SimulationView blind_view(const Scenario& scenario) {
  SimulationView view;
  view.leaf_of_node = sqrt_groups(scenario.nodes);
  view.topology_known = false;
  return view;
}

SimulationResult simulate(const Scenario& scenario, const SimulationView& view, PairsMode pairs,
                          double seconds_per_round, const ScreenSettings& screen,
                          const DiagnosisSettings& diagnosis) {
  SimulationResult result;
  result.pairs = pairs;
  FabricModel fabric(scenario);
  Measurements measured;
  if (pairs == PairsMode::screen) {
    // The screen's first two stages alone, every node on every rail each round.
    const long long first_stages = screen.inside_partners + screen.across_partners;
    const long long figures = static_cast<long long>(scenario.nodes) * scenario.gpus_per_node *
                              (first_stages + 2 * screen.confirm_partners);
    if (figures > kMaxSimulatedFigures) {
      result.simulated = false;
      const auto groups = static_cast<long long>(
          1 + *std::max_element(view.leaf_of_node.begin(), view.leaf_of_node.end()));
      result.rounds = first_stages;
      result.tests = groups * first_stages;
      result.seconds = static_cast<double>(result.rounds) * seconds_per_round;
      result.notes.push_back("screen at " + std::to_string(scenario.nodes) + " nodes of " +
                             std::to_string(scenario.gpus_per_node) + " GPUs measures about " +
                             std::to_string(figures) + " figures, over the simulator's " +
                             std::to_string(kMaxSimulatedFigures) +
                             ": priced as a healthy fleet, not simulated");
      return result;
    }
    ScreenSettings settings = screen;
    settings.tolerance = diagnosis.tolerance;
    measured = run_screen(fabric, view.leaf_of_node, settings);
  } else {
    const bool sequential = pairs == PairsMode::sequential;
    all_pairs_cost(scenario.nodes, sequential, result.tests, result.rounds);
    const long long figures = result.tests * 2 * scenario.gpus_per_node;
    if (figures > kMaxSimulatedFigures) {
      result.simulated = false;
      result.seconds = static_cast<double>(result.rounds) * seconds_per_round;
      result.notes.push_back(std::string(pairs_mode_name(pairs)) + " at " +
                             std::to_string(scenario.nodes) + " nodes measures " +
                             std::to_string(figures) + " figures, over the simulator's " +
                             std::to_string(kMaxSimulatedFigures) + ": priced, not simulated");
      return result;
    }
    measured = run_all_pairs(fabric, sequential);
  }
  result.tests = measured.tests;
  result.rounds = measured.rounds;
  result.seconds = static_cast<double>(measured.rounds) * seconds_per_round;
  result.notes = measured.notes;
  DiagnosisSettings settings = diagnosis;
  settings.topology_known = view.topology_known;
  result.diagnosis = diagnose(measured.observations, scenario.nodes, scenario.gpus_per_node,
                              view.leaf_of_node, settings);
  return result;
}

} // namespace cb
