#pragma once
// What `run` will do, and how long it will take, before anything runs: one phase per (case, GPU
// count), each with the instances it runs, the engine settings of each, and its estimated seconds
// (time_model.hpp); the total; and the plan fitted to a time budget.
//
// The default profile, and what a budget changes (levels, each keeping the ones before):
//   0 (default) the full message-size sweep at every count within one node, at one whole node and
//     at the whole job; at the counts in between (2 .. N/2 nodes) the collectives keep every
//     16x-apart size of the sweep (every 4th at the default step of 2) and the largest. Those
//     sizes keep a curve over every count; the others are measured at one node and at the job,
//     the two ends of the scaling curve, where a fault or a cliff shows.
//   1 the counts below one node are thinned the same way.
//   2 the thinned counts keep three sizes: the smallest, the middle one and the largest.
//   3 shorter caps: launch-bound records (time_model's launch_bound_s) 0.1 s, the others 0.5 s.
//   4 shorter sampling: min_time halved, the batch target halved, caps 0.05 s / 0.25 s.
// From kThinBelowNodeFrom nodes the default is level 1: the counts below one node run on the
// first node while every other node of the job waits, so at that size their full sweep costs
// (nodes - 1) idle nodes for each of its minutes (at 1,024 x 8, cuda: 13 m 26 s at level 0,
// 10 m 06 s at level 1). A --budget that the full sweep fits restores level 0.
// A budget picks the first level whose total fits; when even level 4 does not, the run is refused
// (exit 2) with that total as the smallest feasible budget. The full sweep at one node and at the
// whole job is never dropped: those are the figures a qualification needs.
//
// Pair tests (links/pair_bw, links/pair_latency) run in round-robin rounds: n - 1 rounds for even
// n, n for odd n, over node pairs across nodes (every GPU i <-> i of the two nodes at once) and
// over GPU pairs within a node (every node at once); one engine measurement per round, two per
// round for one-way bandwidth (both directions in consecutive sub-rounds). Their second pass
// (retests of suspect pairs) is bounded at kSecondPassMaxRoundsPerStage rounds per stage; it is
// in the worst case and printed beside the estimate, not in it: a healthy fleet needs none.
// With --pairs screen (the default from 16 nodes) the rounds across nodes are those of a healthy
// fleet's screen (planning/screen_cost.hpp), each measured in its disjoint sub-rounds; its
// confirmation rounds (at most kMaxScreenConfirmRounds) are in the worst case, not the estimate.
#include <functional>
#include <optional>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "planning/hardware_model.hpp"
#include "runtime/engine.hpp"
#include "runtime/family.hpp"
#include "runtime/run_config.hpp"

namespace cb {

// Rounds of the round-robin schedule of n units (0 for fewer than 2).
int round_robin_rounds(int units);

// One case as the planner sees it: what the registry's case says about itself.
struct PlanCase {
  std::string suite;
  std::string name;
  int min_gpus = 1;
  bool largest_count_only = false;
  std::vector<nlohmann::json> instances;
  // What its family says (runtime/family.hpp): records per instance (collectives: one per
  // placement, out of place and in place), whether it runs pair rounds, whether the counts between
  // one node and the job keep only some of its sizes.
  const Family* family = nullptr; // none for a suite of no registered family
  int records_per_instance = 1;
  PairRounds pair_rounds = PairRounds::none;
  bool thins_sizes = false;
  bool launch_bound_window = false;
  // The case's BenchmarkCase::operation_at (empty, or nullopt: every instance is measured).
  std::function<std::optional<nlohmann::json>(const nlohmann::json& params, int ranks)>
      operation_at;
};

// The registered cases this config chooses (needs the cases linked in, as the CLI has them).
std::vector<PlanCase> plan_cases_from_registry(const RunConfig& config);

struct PlannedInstance {
  std::size_t index = 0; // into the case's instances(config)
  nlohmann::json params;
  MeasureSettings measure;
  double op_s = 0;
  double estimate_s = 0;
  bool launch_bound = false;
  bool repeats = false; // the operation of an earlier instance at this count: skipped, not timed
  bool default_estimate = false; // no family estimates the case: kDefaultOperationSeconds
  std::string expect;
};

struct Phase {
  std::string suite;
  std::string name;
  int gpus = 0;
  int nodes = 0;
  int records = 0;
  int pair_rounds = 0; // engine measurements of pair rounds (pair cases only)
  bool thinned = false;
  std::vector<PlannedInstance> instances;
  double estimate_s = 0;
  double worst_case_s = 0; // every measurement at its cap, and the second pass at its bound
  // Pair cases: what the second pass adds at most (both stages at their round cap, every round at
  // its cap). Not in estimate_s: a healthy fleet has no suspect pair and retests nothing.
  double second_pass_max_s = 0;
};

struct PlanTarget {
  int nodes = 1;
  int gpus_per_node = 1;
  std::vector<int> counts; // the GPU counts of the sweep
};

struct RunPlan {
  std::string backend;
  PlanTarget target;
  std::vector<Phase> phases;
  double total_s = 0;
  double worst_case_s = 0;
  double second_pass_max_s = 0; // summed over the pair phases (in worst_case_s too)
  int inter_pair_rounds = 0;    // one pass over the node pairs (the screen's sub-rounds)
  int screen_rounds = 0;     // the screen's rounds across nodes (a healthy fleet's); 0: no screen
  std::string screen_groups; // "topology" or "sqrt"
  int intra_pair_rounds = 0; // one pass over the GPU pairs of a node
  int level = 0;
  bool level_by_size = false; // the level is the default of a job of this many nodes
  double budget_s = 0; // 0 = none
  // "suite/case" of each case planned at the default estimate (time_model.hpp): its time is a
  // guess, and `plan` says so.
  std::vector<std::string> default_estimates;
  HardwareModel model;

  const Phase* find(const std::string& suite, const std::string& name, int gpus) const;
  std::string level_description() const;
  int records() const;
};

inline constexpr int kMaxPlanLevel = 4;
// The node count from which the default level thins the counts below one node (level 1).
inline constexpr int kThinBelowNodeFrom = 16;
// The level of the plan without a budget: 0, or 1 from kThinBelowNodeFrom nodes.
int default_plan_level(const PlanTarget& target);
// The screen's confirmation rounds at most (harness/diagnosis/screen_schedule.cpp).
inline constexpr int kMaxScreenConfirmRounds = 16;

// The plan at one level of the profile.
RunPlan make_plan(const std::vector<PlanCase>& cases, const RunConfig& config,
                  const PlanTarget& target, const HardwareModel& model, int level);

// Without a budget (`budget_s` <= 0) the default level (default_plan_level); with one, the first
// level from 0 that fits it. Throws InputError naming --budget
// with the smallest feasible budget when none does.
RunPlan plan_to_budget(const std::vector<PlanCase>& cases, const RunConfig& config,
                       const PlanTarget& target, const HardwareModel& model, double budget_s);

// {"phases": [...], "total_s", "worst_case_s", "pair_rounds", ...}; with measured seconds per
// phase when `measured_s` has one per phase (negative = not run).
nlohmann::json plan_to_json(const RunPlan& plan, const std::vector<double>& measured_s = {});

// The hardware model for a backend ("host" or "cuda"); `spec_argument` names a spec for cuda
// (default h200-sxm).
// `link_bytes_per_s` > 0 (--plan-link, or measured: planning/measured_link.hpp) replaces the
// model's inter-node bandwidth per rank: the one figure of a cluster no data sheet of the GPU
// gives, and the one that sets the pair rounds' time. `link_source` says where it came from
// (empty: "--plan-link"); without a rate, why the run could not measure one (the model's figure
// is kept and its source says both).
HardwareModel hardware_model_for(const std::string& backend, const std::string& spec_argument,
                                 double link_bytes_per_s = 0, const std::string& link_source = "");

} // namespace cb
