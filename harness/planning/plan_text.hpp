#pragma once
// The plan as people read it: a table of phases, one summary line, and after a run the measured
// time of each phase beside the planned one.
#include <iosfwd>
#include <string>
#include <vector>

#include "planning/run_plan.hpp"
#include "runtime/topology.hpp"

namespace cb {

// "312 records in 48 phases, estimated 4m 12s (every record at its cap: 1h 02m 10s)".
std::string plan_summary(const RunPlan& plan);
// What follows the summary in the run's banner: ", budget 10m 00s, level 1" with a budget,
// ", level 1 (by node count)" when the job's size chose the level, else "".
std::string plan_budget_note(const RunPlan& plan);
// "# link between nodes: 0.0375 GB/s per rank, measured in FILE: pair_bw median over 30 node
// pairs (6 nodes, ...)": the rate the plan prices every transfer across nodes at, and its source.
std::string plan_link_line(const RunPlan& plan);
void print_plan(std::ostream& out, const RunPlan& plan);
// One row per phase that ran: planned, measured, measured / planned; then the totals.
void print_measured_vs_planned(std::ostream& out, const RunPlan& plan,
                               const std::vector<double>& measured_s);

// `nodes` nodes of `gpus_per_node` ranks each, in rank order, hosts node0, node1, ...
NodeLayout uniform_layout(int nodes, int gpus_per_node);
// The GPU counts `run` would sweep on `layout` for config.gpus (auto or a list).
std::vector<int> sweep_counts(const std::string& gpus, const NodeLayout& layout);

} // namespace cb
