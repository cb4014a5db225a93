// clusterbench simulate: the pair tests' schedule (screen, rounds or sequential) and the diagnosis
// run against a modelled fabric (harness/diagnosis), to see what the screen costs and whether the
// diagnosis names exactly the planted faults, where no cluster is at hand.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "diagnosis/simulation.hpp"
#include "diagnosis/topology.hpp"
#include "planning/hardware_model.hpp"
#include "planning/time_model.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

// One round of the pair tests under the planner's time model: one engine measurement of a
// one-way 64 MiB pair_bw transfer across two nodes at the scenario's rail rate, with the sync of
// the whole job (harness/planning/time_model.hpp).
double seconds_per_round(const Scenario& s) {
  HardwareModel model = cuda_hardware_model(nullptr);
  model.inter_bw = s.rail_gbps * 1e9 / 8;
  const PhaseShape across{2 * s.gpus_per_node, 2, s.gpus_per_node};
  const PhaseShape whole{s.nodes * s.gpus_per_node, s.nodes, s.gpus_per_node};
  const nlohmann::json params = {{"bytes", 64.0 * (1 << 20)}, {"direction", "uni"}};
  const double op = operation_seconds(suite_names::kLinks, "pair_bw", params, across, model);
  const RecordEstimate e = estimate_measurement(op, sync_seconds(whole, model), MeasureSettings{},
                                                op < model.launch_bound_s);
  return e.seconds;
}

struct Names {
  std::vector<std::string> switch_of_leaf; // by the view's leaf index
  std::vector<int> scenario_leaf;          // the scenario's leaf of each view leaf
};

nlohmann::json culprit_json(const Culprit& c, const Scenario& s, const SimulationView& view,
                            const Names& names) {
  nlohmann::json j = {{"kind", component_kind_name(c.kind)}};
  if (c.kind != ComponentKind::uplink) {
    j["host"] = c.host;
    j["hosts"] = {simulated_host_name(c.host)};
  }
  if (c.kind == ComponentKind::rail)
    j["gpu"] = c.gpu;
  if (c.direction != Direction::both)
    j["direction"] = direction_name(c.direction);
  if (c.kind == ComponentKind::uplink) {
    j["leaf"] = names.scenario_leaf[static_cast<std::size_t>(c.leaf)];
    j["switch"] = names.switch_of_leaf[static_cast<std::size_t>(c.leaf)];
    nlohmann::json hosts = nlohmann::json::array();
    for (int h = 0; h < s.nodes; ++h) {
      if (view.leaf_of_node[static_cast<std::size_t>(h)] == c.leaf)
        hosts.push_back(simulated_host_name(h));
    }
    j["hosts"] = hosts;
  }
  j["factor"] = std::round(c.factor * 1000) / 1000;
  j["evidence"] = {{"figures", c.figures}, {"slow_figures", c.slow_figures}};
  return j;
}

std::string culprit_line(const Culprit& c, const Scenario& s, const SimulationView& view,
                         const Names& names) {
  std::string what;
  if (c.kind == ComponentKind::node) {
    what = "node    " + simulated_host_name(c.host);
    if (c.direction != Direction::both)
      what += std::string(" (") + direction_name(c.direction) + " only)";
  } else if (c.kind == ComponentKind::rail) {
    what = "rail    " + simulated_host_name(c.host) + " GPU " + std::to_string(c.gpu);
  } else {
    int first = -1, last = -1;
    for (int h = 0; h < s.nodes; ++h) {
      if (view.leaf_of_node[static_cast<std::size_t>(h)] == c.leaf) {
        first = first < 0 ? h : first;
        last = h;
      }
    }
    what = "uplink  " + names.switch_of_leaf[static_cast<std::size_t>(c.leaf)] + " (" +
           simulated_host_name(first) + ".." + simulated_host_name(last) + ")";
  }
  return "  " + what + "  " + format_ratio(c.factor) + " x typical (judged on " +
         std::to_string(c.figures) + " figures, explains " + std::to_string(c.slow_figures) +
         " slow)";
}

int simulate_main(const std::vector<std::string>& argv) {
  ArgParser args("clusterbench simulate",
                 "clusterbench simulate SCENARIO.json [--pairs screen|rounds|sequential] "
                 "[--topology FILE | --no-topology] [--json]");
  args.positional("SCENARIO.json", "the modelled cluster and its faults (docs/DIAGNOSIS.md)")
      .option("pairs", "MODE", "screen, rounds or sequential (default: the scenario's pairs)")
      .option("topology", "FILE",
              "the leaves as a Slurm topology.conf or JSON map names them (hosts node0000...); "
              "default: the scenario's own leaves")
      .flag("no-topology", "screen and diagnose without a topology (groups of ceil(sqrt N) nodes)")
      .flag("json", "print {\"culprits\": [...], \"tests\": T, \"rounds\": R, \"seconds\": S}")
      .epilog("The schedule runs against a modelled fabric, not the network; seconds are the "
              "planner's time model\nfor one pair_bw round per round. Exit codes: 0 ok, 2 bad "
              "input.");
  if (!args.parse(argv)) {
    std::cout << args.help();
    return 0;
  }
  const Scenario scenario = load_scenario(args.positional_value("SCENARIO.json"));
  PairsMode pairs = scenario.pairs;
  if (auto mode = args.get("pairs"))
    pairs = parse_pairs_mode(*mode, "--pairs");
  if (args.has("topology") && args.has("no-topology"))
    throw InputError("--no-topology: give either --topology FILE or --no-topology");

  SimulationView view = args.has("no-topology") ? blind_view(scenario) : scenario_view(scenario);
  Names names;
  std::vector<std::string> notes;
  if (auto file = args.get("topology")) {
    std::vector<std::string> hosts;
    for (int h = 0; h < scenario.nodes; ++h)
      hosts.push_back(simulated_host_name(h));
    HostPlacement placement = place_hosts(load_topology(*file), hosts);
    view.leaf_of_node = placement.leaf_of_node;
    names.switch_of_leaf = placement.leaf_names;
    notes = placement.notes;
  }
  const int view_leaves = 1 + *std::max_element(view.leaf_of_node.begin(), view.leaf_of_node.end());
  names.scenario_leaf.assign(static_cast<std::size_t>(view_leaves), -1);
  for (int h = scenario.nodes - 1; h >= 0; --h) {
    names.scenario_leaf[static_cast<std::size_t>(view.leaf_of_node[static_cast<std::size_t>(h)])] =
        h / scenario.leaf_nodes;
  }
  for (int leaf = static_cast<int>(names.switch_of_leaf.size()); leaf < view_leaves; ++leaf)
    names.switch_of_leaf.push_back((view.topology_known ? "leaf" : "group") + std::to_string(leaf));

  const SimulationResult result = simulate(scenario, view, pairs, seconds_per_round(scenario));
  notes.insert(notes.end(), result.notes.begin(), result.notes.end());
  if (result.diagnosis)
    notes.insert(notes.end(), result.diagnosis->notes.begin(), result.diagnosis->notes.end());

  if (args.has("json")) {
    nlohmann::json out = {
        {"pairs", pairs_mode_name(pairs)}, {"tests", result.tests},
        {"rounds", result.rounds},         {"seconds", std::round(result.seconds * 10) / 10},
        {"simulated", result.simulated},   {"notes", notes}};
    if (result.diagnosis) {
      nlohmann::json culprits = nlohmann::json::array();
      for (const auto& c : result.diagnosis->culprits)
        culprits.push_back(culprit_json(c, scenario, view, names));
      out["culprits"] = culprits;
      out["figures"] = result.diagnosis->figures;
      out["noise"] = std::round(result.diagnosis->sigma * 10000) / 10000;
    } else {
      out["culprits"] = nullptr;
    }
    std::cout << out.dump() << "\n";
    return 0;
  }
  char head[256];
  std::snprintf(head, sizeof head,
                "simulate: %d nodes x %d GPUs, %d %s, pairs %s: %lld tests, %lld rounds, "
                "%s s modelled (%s min)\n",
                // The leaves the screen planned on (a topology file's, or the blind groups), not
                // the scenario's own: those are what the culprit lines name.
                scenario.nodes, scenario.gpus_per_node, view_leaves,
                view.topology_known ? "leaves" : "groups", pairs_mode_name(pairs), result.tests,
                result.rounds, format_fixed(result.seconds, 0).c_str(),
                format_fixed(result.seconds / 60, 1).c_str());
  std::cout << head;
  if (result.diagnosis) {
    const auto& d = *result.diagnosis;
    std::cout << "culprits: " << d.culprits.size() << (d.culprits.empty() ? " (none)" : "") << "\n";
    for (const auto& c : d.culprits)
      std::cout << culprit_line(c, scenario, view, names) << "\n";
    std::cout << "evidence: " << d.figures << " figures, noise " << format_percent_fixed(d.sigma)
              << " per figure, conviction at z " << format_fixed(d.z, 1) << "\n";
  }
  for (const auto& note : notes)
    std::cout << "note: " << note << "\n";
  return 0;
}

} // namespace

CB_REGISTER_COMMAND("simulate", "run the pair tests' schedule and diagnosis on a modelled fabric",
                    simulate_main);

} // namespace cb
