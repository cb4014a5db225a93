#include "planning/run_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>

#include "core/duration.hpp"
#include "core/error.hpp"
#include "diagnosis/schedules.hpp"
#include "planning/screen_cost.hpp"
#include "planning/time_model.hpp"
#include "qualify/spec.hpp"
#include "qualify/spec_locator.hpp"
#include "runtime/case.hpp"
#include "runtime/family.hpp"
#include "runtime/second_pass_limit.hpp"

namespace cb {

int round_robin_rounds(int units) {
  if (units < 2)
    return 0;
  return units % 2 == 0 ? units - 1 : units;
}

std::vector<PlanCase> plan_cases_from_registry(const RunConfig& config) {
  std::vector<PlanCase> out;
  for (auto& created : CaseRegistry::instance().create_all()) {
    const std::shared_ptr<const BenchmarkCase> c = std::move(created);
    if (!config.wants_case(c->suite(), c->name()))
      continue;
    PlanCase p;
    p.operation_at = [c](const nlohmann::json& params, int ranks) {
      return c->operation_at(params, ranks);
    };
    p.suite = c->suite();
    p.name = c->name();
    p.min_gpus = c->min_gpus();
    p.largest_count_only = c->largest_count_only();
    p.instances = c->instances(config);
    const Family* family = FamilyRegistry::instance().find(p.suite);
    p.family = family;
    p.records_per_instance = family ? family->records_per_instance(p.name, config) : 1;
    p.pair_rounds = family ? family->pair_rounds(p.name) : PairRounds::none;
    p.thins_sizes = family && family->thins_sizes_between_counts();
    p.launch_bound_window = family && family->launch_bound_window(p.name);
    out.push_back(std::move(p));
  }
  return out;
}

const Phase* RunPlan::find(const std::string& suite, const std::string& name, int gpus) const {
  for (const auto& p : phases) {
    if (p.suite == suite && p.name == name && p.gpus == gpus)
      return &p;
  }
  return nullptr;
}

int RunPlan::records() const {
  int n = 0;
  for (const auto& p : phases)
    n += p.records;
  return n;
}

std::string RunPlan::level_description() const {
  static const char* text[] = {
      "default: full size sweep within one node, at one node and at the whole job; sizes 16x "
      "apart at the counts in between",
      "sizes 16x apart also at the counts below one node",
      "three sizes (smallest, middle, largest) at the thinned counts",
      "three sizes at the thinned counts; caps 0.1 s (launch-bound) and 0.5 s",
      "three sizes at the thinned counts; caps 0.05 s / 0.25 s, min time and batch target halved"};
  if (level_by_size) {
    return "default from " + std::to_string(kThinBelowNodeFrom) +
           " nodes: " + text[std::clamp(level, 0, kMaxPlanLevel)] +
           " (they run on one node while the others wait; a --budget the full sweep fits keeps "
           "it)";
  }
  return text[std::clamp(level, 0, kMaxPlanLevel)];
}

namespace {

// Whether the collectives at count n are thinned at this level.
bool thinned_count(int n, const PlanTarget& t, int level) {
  const int world = t.nodes * t.gpus_per_node;
  if (n == world || n == t.gpus_per_node)
    return false;
  return n > t.gpus_per_node || level >= 1;
}

// The message sizes kept at a thinned count: every 16x-apart size and the largest (level < 2), or
// the smallest, middle and largest (level >= 2). The sizes are the case's own (its bytes axis);
// their step is the mean ratio between neighbours (the range's factor when they are one).
std::vector<std::uint64_t> kept_sizes(const PlanCase& c, int level) {
  std::vector<std::uint64_t> all;
  for (const auto& p : c.instances) {
    const auto bytes = p.value("bytes", 0ull);
    if (std::find(all.begin(), all.end(), bytes) == all.end())
      all.push_back(bytes);
  }
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> kept;
  if (all.size() <= 3)
    return all;
  if (level >= 2)
    return {all.front(), all[all.size() / 2], all.back()};
  const double step = std::pow(static_cast<double>(all.back()) /
                                   static_cast<double>(std::max<std::uint64_t>(1, all.front())),
                               1.0 / static_cast<double>(all.size() - 1));
  const int stride =
      step > 1 ? std::max(1, static_cast<int>(std::lround(std::log(16.0) / std::log(step)))) : 1;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i % static_cast<std::size_t>(stride) == 0 || i + 1 == all.size())
      kept.push_back(all[i]);
  }
  return kept;
}

MeasureSettings settings_at(const MeasureSettings& base, int level, bool launch_bound) {
  MeasureSettings s = base;
  if (level >= 3)
    s.max_time_s = std::min(s.max_time_s, launch_bound ? 0.1 : 0.5);
  if (level >= 4) {
    s.max_time_s = std::min(s.max_time_s, launch_bound ? 0.05 : 0.25);
    s.min_time_s /= 2;
    s.batch_time_s /= 2;
  }
  s.min_time_s = std::min(s.min_time_s, s.max_time_s);
  return s;
}

// A record of a case other than the pair tests: the profile's fixed window, or its shorter cap for
// a launch-bound record (a window of that length where the case asks), where it has them
// (engine.hpp), halved at level 4 as the other times are, never above the cap.
MeasureSettings record_settings_at(const MeasureSettings& base, int level, bool launch_bound,
                                   bool launch_bound_window) {
  MeasureSettings s = settings_at(base, level, launch_bound);
  const double scale = level >= 4 ? 0.5 : 1.0;
  if (launch_bound && s.launch_bound_cap_s > 0) {
    s.max_time_s = std::min(s.max_time_s, scale * s.launch_bound_cap_s);
    s.min_time_s = std::min(launch_bound_window ? s.max_time_s : s.min_time_s, s.max_time_s);
    s.stop_early = !launch_bound_window;
  } else if (!launch_bound && s.window_s > 0) {
    s.stop_early = false;
    s.min_time_s = std::min(s.max_time_s, scale * s.window_s);
  }
  return s;
}

// Every measurement at its cap: the same rules with min_time at the cap and no early stop.
double worst_case(double op_s, double sync_s, const MeasureSettings& s, double sample_extra_s = 0) {
  MeasureSettings at_cap = s;
  at_cap.min_time_s = s.max_time_s;
  at_cap.settle = false;
  return estimate_measurement(op_s, sync_s, at_cap, false, sample_extra_s).seconds;
}

// A launch-bound record's estimate when `converge` of such records converge at once and the rest
// settle or reach the cap.
RecordEstimate mixed_estimate(double op_s, double sync_s, const MeasureSettings& s,
                              bool launch_bound, double converge, double sample_extra_s) {
  RecordEstimate e = estimate_measurement(op_s, sync_s, s, launch_bound, sample_extra_s);
  if (converge > 0 && s.stop_early) { // a fixed window ends at its own time, converged or not
    const RecordEstimate at_once = estimate_measurement(op_s, sync_s, s, false, sample_extra_s);
    e.seconds = converge * at_once.seconds + (1 - converge) * e.seconds;
    e.expect = converge >= 1 ? at_once.expect : at_once.expect + " or " + e.expect;
  }
  return e;
}

std::vector<int> counts_for(const PlanCase& c, const std::vector<int>& counts) {
  std::vector<int> out;
  for (int n : counts) {
    if (n >= c.min_gpus)
      out.push_back(n);
  }
  if (c.largest_count_only && !out.empty())
    out = {out.back()};
  return out;
}

PhaseShape shape_at(int n, const PlanTarget& t) {
  PhaseShape s;
  s.ranks = n;
  s.nodes = (n + t.gpus_per_node - 1) / t.gpus_per_node;
  s.ranks_per_node = std::min(n, t.gpus_per_node);
  return s;
}

void plan_pair_phase(Phase& phase, const PlanCase& c, const PlanTarget& t, const RunConfig& config,
                     const HardwareModel& model, int level, RunPlan& plan) {
  const PhaseShape whole = shape_at(phase.gpus, t);
  // Across nodes: the round-robin rounds, or the screen's rounds of a healthy fleet, each
  // measured as its disjoint sub-rounds (an engine measurement each, as a round-robin round).
  const PairScheduleRequest asked =
      c.family ? c.family->pair_schedule_request(config) : PairScheduleRequest{};
  const bool screen = whole.nodes > 1 && pair_schedule_for(asked.schedule, whole.nodes) == "screen";
  int inter = whole.nodes > 1 ? round_robin_rounds(whole.nodes) : 0;
  if (screen) {
    std::string groups;
    const ScreenCost cost =
        healthy_screen_cost(planned_screen_groups(whole.nodes, asked.topology, groups));
    inter = cost.sub_rounds;
    plan.screen_rounds = std::max(plan.screen_rounds, cost.rounds);
    plan.screen_groups = groups;
  }
  const int intra = round_robin_rounds(whole.ranks_per_node);
  plan.inter_pair_rounds = std::max(plan.inter_pair_rounds, inter);
  plan.intra_pair_rounds = std::max(plan.intra_pair_rounds, intra);
  const double sync = sync_seconds(whole, model);
  PhaseShape across = whole, within = whole;
  across.nodes = 2;
  within.nodes = 1;
  for (std::size_t i = 0; i < c.instances.size(); ++i) {
    const auto& params = c.instances[i];
    // One engine measurement per round, two for a directed test (one-way bandwidth, and the
    // ping-pong started from each end in turn).
    const bool ping_pong = c.pair_rounds == PairRounds::ping_pong;
    const int passes =
        (ping_pong && model.ping_pong_both_orders) || params.value("direction", "") == "uni" ? 2
                                                                                             : 1;
    PlannedInstance pi;
    pi.index = i;
    pi.params = params;
    const OperationEstimate est_across = estimate_operation(c.suite, c.name, params, across, model);
    const double op_across = est_across.seconds;
    const double op_within = operation_seconds(c.suite, c.name, params, within, model);
    pi.op_s = inter > 0 ? op_across : op_within;
    pi.default_estimate = !est_across.from_family;
    pi.launch_bound = pi.op_s < model.launch_bound_s;
    pi.measure = settings_at(config.measure, level, pi.launch_bound);
    if (ping_pong && model.ping_pong_latency_batch)
      pi.measure = latency_settings(pi.measure); // as the case times it
    const double extra = ping_pong ? model.ping_pong_sample_extra_s : 0.0;

    // Launch-bound ping-pongs: a share converges at once, the rest settles or hits the cap.
    const double converge = ping_pong && pi.launch_bound ? model.ping_pong_converge_share : 0.0;
    auto expected = [&](double op) {
      return mixed_estimate(op, sync, pi.measure, pi.launch_bound, converge, extra);
    };
    const RecordEstimate a = expected(op_across);
    const RecordEstimate w = expected(op_within);
    pi.expect = inter > 0 ? a.expect : w.expect;
    const double setup =
        model.record_setup_s + setup_seconds(c.suite, c.name, params, whole, model);
    pi.estimate_s = setup + passes * (inter * a.seconds + intra * w.seconds);
    const double across_at_cap = worst_case(op_across, sync, pi.measure, extra);
    // The second pass retests node pairs across nodes only; the screen has none, but confirms
    // suspects in at most kMaxScreenConfirmRounds rounds of at most three sub-rounds each.
    const double extra_rounds =
        screen ? 3.0 * kMaxScreenConfirmRounds : kSecondPassStages * kSecondPassMaxRoundsPerStage;
    const double second_pass = inter > 0 ? passes * extra_rounds * across_at_cap : 0.0;
    phase.second_pass_max_s += second_pass;
    phase.worst_case_s +=
        setup +
        passes * (inter * across_at_cap + intra * worst_case(op_within, sync, pi.measure, extra)) +
        second_pass;
    phase.pair_rounds += passes * (inter + intra);
    phase.estimate_s += pi.estimate_s;
    phase.records += 1;
    phase.instances.push_back(std::move(pi));
  }
}

// A case planned at the default: its phase says so, and the plan names it once.
void note_default_estimate(const Phase& phase, RunPlan& plan) {
  const bool defaulted = std::any_of(phase.instances.begin(), phase.instances.end(),
                                     [](const PlannedInstance& pi) { return pi.default_estimate; });
  const std::string name = phase.suite + "/" + phase.name;
  if (defaulted && std::find(plan.default_estimates.begin(), plan.default_estimates.end(), name) ==
                       plan.default_estimates.end())
    plan.default_estimates.push_back(name);
}

} // namespace

RunPlan make_plan(const std::vector<PlanCase>& cases, const RunConfig& config,
                  const PlanTarget& target, const HardwareModel& model, int level) {
  RunPlan plan;
  plan.backend = model.backend;
  plan.target = target;
  plan.level = level;
  plan.model = model;
  for (const auto& c : cases) {
    if (c.instances.empty())
      continue;
    int previous_nodes = 0; // the case's previous phase's, 0 before its first
    for (int n : counts_for(c, target.counts)) {
      Phase phase;
      phase.suite = c.suite;
      phase.name = c.name;
      phase.gpus = n;
      PhaseShape shape = shape_at(n, target);
      shape.memory_reused = previous_nodes >= shape.nodes; // the phases run on the first nodes
      previous_nodes = shape.nodes;
      phase.nodes = shape.nodes;
      if (c.pair_rounds != PairRounds::none) {
        plan_pair_phase(phase, c, target, config, model, level, plan);
      } else {
        const bool thin = c.thins_sizes && thinned_count(n, target, level);
        phase.thinned = thin;
        const std::vector<std::uint64_t> kept =
            thin ? kept_sizes(c, level) : std::vector<std::uint64_t>{};
        const double sync = sync_seconds(shape, model);
        std::set<std::string> operations; // at this count
        for (std::size_t i = 0; i < c.instances.size(); ++i) {
          const auto& params = c.instances[i];
          if (thin &&
              std::find(kept.begin(), kept.end(), params.value("bytes", 0ull)) == kept.end()) {
            continue;
          }
          PlannedInstance pi;
          pi.index = i;
          pi.params = params;
          const std::optional<nlohmann::json> measured =
              c.operation_at ? c.operation_at(params, n) : std::nullopt;
          const nlohmann::json& op = measured ? *measured : params;
          if (measured && !operations.insert(op.dump()).second) {
            // Run, to say why in a skipped record, but never timed: at 8,192 ranks 13 sizes of
            // all_gather are one operation, and counting each would plan 13 times its cost.
            pi.repeats = true;
            pi.measure = settings_at(config.measure, level, true);
            phase.records += c.records_per_instance;
            phase.instances.push_back(std::move(pi));
            continue;
          }
          const OperationEstimate est = estimate_operation(c.suite, c.name, op, shape, model);
          pi.op_s = est.seconds;
          pi.default_estimate = !est.from_family;
          pi.launch_bound = pi.op_s < model.launch_bound_s;
          pi.measure =
              record_settings_at(config.measure, level, pi.launch_bound, c.launch_bound_window);
          const double converge =
              pi.launch_bound && c.family
                  ? c.family->launch_bound_converge_share(c.name, shape, model)
                  : 0.0;
          RecordEstimate e =
              mixed_estimate(pi.op_s, sync, pi.measure, pi.launch_bound, converge, 0.0);
          if (c.family)
            c.family->own_sampling(c.name, pi.op_s, sync, pi.measure, e);
          pi.expect = e.expect;
          const double setup =
              model.record_setup_s + setup_seconds(c.suite, c.name, op, shape, model);
          pi.estimate_s = c.records_per_instance * (setup + e.seconds);
          phase.worst_case_s +=
              c.records_per_instance *
              (setup + std::max(e.seconds, worst_case(pi.op_s, sync, pi.measure)));
          phase.estimate_s += pi.estimate_s;
          phase.records += c.records_per_instance;
          phase.instances.push_back(std::move(pi));
        }
      }
      note_default_estimate(phase, plan);
      plan.total_s += phase.estimate_s;
      plan.worst_case_s += phase.worst_case_s;
      plan.second_pass_max_s += phase.second_pass_max_s;
      plan.phases.push_back(std::move(phase));
    }
  }
  return plan;
}

int default_plan_level(const PlanTarget& target) {
  return target.nodes >= kThinBelowNodeFrom ? 1 : 0;
}

RunPlan plan_to_budget(const std::vector<PlanCase>& cases, const RunConfig& config,
                       const PlanTarget& target, const HardwareModel& model, double budget_s) {
  if (budget_s <= 0) {
    RunPlan plan = make_plan(cases, config, target, model, default_plan_level(target));
    plan.level_by_size = plan.level > 0;
    return plan;
  }
  RunPlan plan = make_plan(cases, config, target, model, 0);
  for (int level = 1; plan.total_s > budget_s && level <= kMaxPlanLevel; ++level)
    plan = make_plan(cases, config, target, model, level);
  if (plan.total_s > budget_s) {
    throw InputError("--budget: " + format_budget(budget_s) +
                     " is below the smallest feasible plan for this job: " +
                     format_budget(std::ceil(plan.total_s)) + " (" +
                     std::to_string(static_cast<long long>(std::ceil(plan.total_s))) +
                     " s, with three sizes at the thinned counts and the shortest caps)");
  }
  plan.budget_s = budget_s;
  return plan;
}

nlohmann::json plan_to_json(const RunPlan& plan, const std::vector<double>& measured_s) {
  nlohmann::json phases = nlohmann::json::array();
  for (std::size_t i = 0; i < plan.phases.size(); ++i) {
    const Phase& p = plan.phases[i];
    nlohmann::json j{{"suite", p.suite},
                     {"case", p.name},
                     {"gpus", p.gpus},
                     {"nodes", p.nodes},
                     {"instances", p.instances.size()},
                     {"records", p.records},
                     {"estimated_s", p.estimate_s},
                     {"worst_case_s", p.worst_case_s}};
    if (p.pair_rounds > 0)
      j["pair_rounds"] = p.pair_rounds;
    if (p.second_pass_max_s > 0)
      j["second_pass_max_s"] = p.second_pass_max_s;
    if (p.thinned) {
      nlohmann::json sizes = nlohmann::json::array();
      for (const auto& pi : p.instances) {
        const auto bytes = pi.params.value("bytes", 0ull);
        if (std::find(sizes.begin(), sizes.end(), bytes) == sizes.end())
          sizes.push_back(bytes);
      }
      j["thinned_sizes"] = sizes;
    }
    if (!p.instances.empty())
      j["max_time_s"] = p.instances.front().measure.max_time_s;
    if (i < measured_s.size() && measured_s[i] >= 0) {
      j["measured_s"] = measured_s[i];
      if (p.estimate_s > 0)
        j["measured_over_planned"] = measured_s[i] / p.estimate_s;
    }
    phases.push_back(std::move(j));
  }
  nlohmann::json model{{"description", plan.model.description},
                       {"link", {{"bytes_per_s", plan.model.inter_bw},
                                 {"source", plan.model.link_source}}}};
  for (const auto& [figure, source] : plan.model.sources)
    model["sources"][figure] = source;
  nlohmann::json out{{"phases", std::move(phases)},
                     {"total_s", plan.total_s},
                     {"worst_case_s", plan.worst_case_s},
                     {"second_pass_max_s", plan.second_pass_max_s},
                     {"second_pass_max_rounds_per_stage", kSecondPassMaxRoundsPerStage},
                     {"pair_rounds", plan.inter_pair_rounds},
                     {"intra_node_pair_rounds", plan.intra_pair_rounds},
                     {"pairs", plan.screen_rounds > 0 ? "screen" : "rounds"},
                     {"records", plan.records()},
                     {"backend", plan.backend},
                     {"nodes", plan.target.nodes},
                     {"gpus_per_node", plan.target.gpus_per_node},
                     {"counts", plan.target.counts},
                     {"level", plan.level},
                     {"profile", plan.level_description()},
                     {"model", std::move(model)}};
  if (!plan.default_estimates.empty())
    out["default_estimates"] = plan.default_estimates;
  if (plan.screen_rounds > 0)
    out["screen"] = {{"rounds", plan.screen_rounds}, {"groups", plan.screen_groups}};
  if (plan.budget_s > 0)
    out["budget_s"] = plan.budget_s;
  if (!measured_s.empty()) {
    double total = 0;
    for (double v : measured_s)
      total += std::max(0.0, v);
    out["measured_total_s"] = total;
  }
  return out;
}

HardwareModel hardware_model_for(const std::string& backend, const std::string& spec_argument,
                                 double link_bytes_per_s, const std::string& link_source) {
  HardwareModel m;
  if (backend != "cuda") {
    // A spec's figures are a GPU's data sheet; a host plan that took the flag and used its own
    // model would print a plan the operator believes is the spec's.
    if (!spec_argument.empty()) {
      throw InputError("--plan-spec: the " + backend +
                       " backend plans from its own model, not a GPU spec's figures; leave it "
                       "out, or plan for --backend cuda");
    }
    m = host_hardware_model();
  } else {
    const Spec spec =
        load_spec_file(resolve_spec_argument(spec_argument.empty() ? "h200-sxm" : spec_argument));
    m = cuda_hardware_model(&spec);
  }
  if (link_bytes_per_s > 0) {
    m.inter_bw = link_bytes_per_s;
    m.link_source = link_source.empty() ? "--plan-link" : link_source;
    m.sources["inter_bw"] = m.link_source;
  } else if (!link_source.empty()) {
    // A rate the run tried to measure and could not: the model's figure, and why not.
    m.link_source += "; " + link_source;
  }
  return m;
}

} // namespace cb
