// clusterbench plan: what `run` would do, phase by phase, and how long it would take, for this job
// or for a described cluster (--nodes, --gpus-per-node), without running anything.
#include <iostream>

#include "cli/command.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "planning/measured_link.hpp"
#include "planning/plan_text.hpp"
#include "planning/run_plan.hpp"
#include "runtime/backend_registry.hpp"
#include "runtime/run_options.hpp"

namespace cb {
namespace {

// The largest cluster plan describes: 16 times the largest our users run (1,024+ nodes of 8),
// planned in about a second. A million nodes took minutes, and a million of a million ran out of
// memory (the planner lays out every rank).
constexpr long long kMaxPlanNodes = 16384;
constexpr long long kMaxPlanGpusPerNode = 256; // a host node's cores, one rank each
constexpr long long kMaxPlanRanks = 262144;

int in_range(const ArgParser& args, const std::string& flag, long long most) {
  const long long v = parse_integer(*args.get(flag), "--" + flag);
  if (v < 1 || v > most) {
    throw InputError("--" + flag + ": must be 1.." + std::to_string(most) + ", got " +
                     *args.get(flag));
  }
  return static_cast<int>(v);
}

int plan_main(const std::vector<std::string>& args) {
  ArgParser parser = run_argument_parser("plan");
  parser
      .option("nodes", "N", "plan for N nodes instead of this job (default 1, or this job's)")
      .option("gpus-per-node", "G",
              "ranks per node of the described cluster (default: --np, else this machine's "
              "devices; 8 for cuda on a machine without GPUs)")
      .option("from", "RESULTS.json",
              "the same as --plan-from: an earlier run's results of this cluster, whose link "
              "rate across nodes the plan uses")
      .flag("json", "print {\"phases\": [...], \"total_s\": ..., \"pair_rounds\": ...}");
  parser.epilog("clusterbench plan takes run's flags and runs nothing: it prints each phase (suite, "
                "case, GPU count)\nwith its instances, pair rounds and estimated seconds, and the "
                "total. Exit codes: 0 ok, 2 bad input\n(a --budget the smallest plan cannot meet).");
  if (!parser.parse(args)) {
    std::cout << parser.help() << "\n";
    return 0;
  }
  RunConfig config = run_config_from(parser);
  if (parser.has("from")) {
    if (parser.has("plan-from"))
      throw InputError("--from: the same as --plan-from; give one of them");
    config.plan_from = *parser.get("from");
    if (config.plan_from.empty())
      throw InputError("--from: expected a results file, got an empty name");
  }
  const int nodes = parser.has("nodes") ? in_range(parser, "nodes", kMaxPlanNodes) : 1;
  std::string backend = config.backend;
  if (backend == "auto") {
    std::string note;
    backend = BackendRegistry::instance().resolve(backend, note);
  } else if (backend != "host" && backend != "cuda") {
    throw InputError("--backend: expected auto, host or cuda, got '" + backend + "'");
  }
  config.backend_kind = backend_kind_named(backend);
  int per_node = 0;
  if (parser.has("gpus-per-node")) {
    per_node = in_range(parser, "gpus-per-node", kMaxPlanGpusPerNode);
  } else if (config.np > 0) {
    per_node = (config.np + nodes - 1) / nodes;
  } else {
    std::string why;
    const BackendInfo* info = BackendRegistry::instance().find(backend);
    per_node = info ? info->count_devices(why) : 0;
    if (per_node < 1)
      per_node = backend == "cuda" ? 8 : 1;
  }
  if (static_cast<long long>(nodes) * per_node > kMaxPlanRanks) {
    throw InputError("--nodes x --gpus-per-node: " + std::to_string(nodes) + " x " +
                     std::to_string(per_node) + " ranks is more than the " +
                     std::to_string(kMaxPlanRanks) + " plan describes");
  }
  PlanTarget target;
  target.nodes = nodes;
  target.gpus_per_node = per_node;
  target.counts = sweep_counts(config.gpus, uniform_layout(nodes, per_node));
  resolve_plan_link(config, backend);
  const HardwareModel model = hardware_model_for(backend, config.plan_spec, config.plan_link_bps,
                                                 config.plan_link_source);
  const RunPlan plan =
      plan_to_budget(plan_cases_from_registry(config), config, target, model, config.budget_s);
  if (parser.has("json")) {
    std::cout << plan_to_json(plan).dump(2) << "\n";
  } else {
    print_plan(std::cout, plan);
  }
  return 0;
}

} // namespace

CB_REGISTER_COMMAND("plan", "what run would do and how long it would take, without running it",
                    plan_main);

} // namespace cb
