#include "planning/plan_text.hpp"

#include <cstdio>
#include <ostream>

#include "core/duration.hpp"
#include "core/format.hpp"
#include "planning/time_model.hpp"
#include "runtime/second_pass_limit.hpp"

namespace cb {

std::string plan_summary(const RunPlan& plan) {
  return std::to_string(plan.records()) + " records in " + std::to_string(plan.phases.size()) +
         " phases, estimated " + format_budget(plan.total_s) +
         " (every record at its cap: " + format_budget(plan.worst_case_s) + ")";
}

std::string plan_budget_note(const RunPlan& plan) {
  const std::string level = ", level " + std::to_string(plan.level);
  if (plan.budget_s > 0)
    return ", budget " + format_budget(plan.budget_s) + level;
  return plan.level_by_size ? level + " (by node count)" : "";
}

std::string plan_link_line(const RunPlan& plan) {
  return "# link between nodes: " + format_gbps(plan.model.inter_bw * 1e-9) + " per rank, " +
         plan.model.link_source;
}

void print_plan(std::ostream& out, const RunPlan& plan) {
  char line[256];
  std::string counts;
  for (int n : plan.target.counts)
    counts += (counts.empty() ? "" : ",") + std::to_string(n);
  out << "# clusterbench plan: " << plan.target.nodes << " node"
      << (plan.target.nodes == 1 ? "" : "s") << " x " << plan.target.gpus_per_node << " ("
      << plan.target.nodes * plan.target.gpus_per_node << " ranks), backend " << plan.backend
      << ", GPU counts " << counts << "\n";
  out << "# figures: " << plan.model.description << "\n";
  out << plan_link_line(plan) << "\n";
  out << "# profile: level " << plan.level << ", " << plan.level_description() << "\n";
  std::snprintf(line, sizeof line, "# %-12s %-18s %6s %6s %6s %8s %7s %9s %10s\n", "suite", "case",
                "gpus", "nodes", "inst", "records", "rounds", "cap (s)", "est (s)");
  out << line;
  for (const auto& p : plan.phases) {
    const double cap = p.instances.empty() ? 0.0 : p.instances.front().measure.max_time_s;
    std::snprintf(line, sizeof line, "  %-12s %-18s %6d %6d %6zu %8d %7s %9s %10s%s\n",
                  p.suite.c_str(), p.name.c_str(), p.gpus, p.nodes, p.instances.size(), p.records,
                  p.pair_rounds > 0 ? std::to_string(p.pair_rounds).c_str() : "-",
                  format_figure_compact(cap).c_str(), format_fixed(p.estimate_s, 2).c_str(),
                  p.thinned ? "  (sizes thinned)" : "");
    out << line;
  }
  out << "# total: " << plan_summary(plan) << "\n";
  if (plan.screen_rounds > 0) {
    out << "# pair rounds: the screen between nodes, " << plan.screen_rounds
        << " rounds of a healthy fleet in " << plan.inter_pair_rounds << " sub-rounds ("
        << (plan.screen_groups == "topology" ? "groups: the topology's leaves"
                                             : "groups of ceil(sqrt(nodes)) nodes")
        << "), " << plan.intra_pair_rounds << " within a node (GPU pairs)\n";
  } else if (plan.inter_pair_rounds > 0 || plan.intra_pair_rounds > 0) {
    out << "# pair rounds: " << plan.inter_pair_rounds << " between nodes (node pairs), "
        << plan.intra_pair_rounds << " within a node (GPU pairs)\n";
  }
  if (plan.second_pass_max_s > 0 && plan.screen_rounds > 0) {
    out << "# the screen's confirmation of suspects: only where a figure is slow (a healthy "
           "fleet needs none), at most "
        << kMaxScreenConfirmRounds << " rounds: up to " << format_budget(plan.second_pass_max_s)
        << " more (in the worst case)\n";
  } else if (plan.second_pass_max_s > 0) {
    out << "# second pass of the pair tests: only for suspect pairs (a healthy fleet needs none), "
           "at most "
        << kSecondPassMaxRoundsPerStage << " rounds per stage: up to "
        << format_budget(plan.second_pass_max_s) << " more (in the worst case)\n";
  }
  for (const auto& name : plan.default_estimates) {
    out << "# WARNING: " << name << " has no estimate in its family (bench/<family>/family.cpp): "
        << "planned at " << kDefaultOperationSeconds * 1e3
        << " ms per operation, its time is a guess\n";
  }
  if (plan.budget_s > 0)
    out << "# budget: " << format_budget(plan.budget_s) << "\n";
}

void print_measured_vs_planned(std::ostream& out, const RunPlan& plan,
                               const std::vector<double>& measured_s) {
  char line[256];
  out << "#\n# time per phase, measured beside planned:\n";
  std::snprintf(line, sizeof line, "# %-12s %-18s %6s %10s %10s %7s\n", "suite", "case", "gpus",
                "planned", "measured", "ratio");
  out << line;
  double planned = 0, measured = 0;
  for (std::size_t i = 0; i < plan.phases.size() && i < measured_s.size(); ++i) {
    const Phase& p = plan.phases[i];
    if (measured_s[i] < 0)
      continue;
    planned += p.estimate_s;
    measured += measured_s[i];
    std::snprintf(line, sizeof line, "# %-12s %-18s %6d %9ss %9ss %7s\n", p.suite.c_str(),
                  p.name.c_str(), p.gpus, format_fixed(p.estimate_s, 2).c_str(),
                  format_fixed(measured_s[i], 2).c_str(),
                  format_ratio(p.estimate_s > 0 ? measured_s[i] / p.estimate_s : 0.0).c_str());
    out << line;
  }
  std::snprintf(line, sizeof line, "# %-12s %-18s %6s %9ss %9ss %7s\n", "total", "", "",
                format_fixed(planned, 2).c_str(), format_fixed(measured, 2).c_str(),
                format_ratio(planned > 0 ? measured / planned : 0.0).c_str());
  out << line;
}

NodeLayout uniform_layout(int nodes, int gpus_per_node) {
  std::vector<int> keys;
  std::vector<std::string> hosts;
  keys.reserve(static_cast<std::size_t>(nodes) * gpus_per_node);
  for (int node = 0; node < nodes; ++node) {
    for (int g = 0; g < gpus_per_node; ++g) {
      keys.push_back(node);
      hosts.push_back("node" + std::to_string(node));
    }
  }
  return make_layout(keys, hosts);
}

std::vector<int> sweep_counts(const std::string& gpus, const NodeLayout& layout) {
  return gpus == "auto" ? auto_gpu_counts(layout)
                        : parse_gpu_counts(gpus, static_cast<int>(layout.node_of_rank.size()));
}

} // namespace cb
