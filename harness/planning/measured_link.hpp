#pragma once
// The inter-node link rate per rank (the figure --plan-link sets) as an earlier run of the same
// cluster measured it, and where the plan's link rate comes from: --plan-link, that file, or the
// backend model's assumption.
//
// From a results file it takes, in this order:
//   1. links/pair_bw direction=uni across nodes (ok or noisy), at its largest size: the record's
//      gbps, the median over its node pairs of one rank pair's one-way rate. It is the figure
//      the planner's inter_bw stands for, with no algorithm in between, and a median: one slow
//      pair does not set it.
//   2. links/ring_bw across nodes, at its largest size and then most ranks: its aggregate over
//      its ranks, one rank's rate while every rank sends and receives (the planner prices ring_bw
//      on inter_bw alone). It is bounded by the slowest link of the ring, so it can be low.
// all_reduce is not taken: its bus bandwidth across nodes mixes the tier inside a node and the
// algorithm, and the planner derives the collectives' time from this very figure.
#include <string>
#include <vector>

#include "results/record.hpp"
#include "runtime/run_config.hpp"

namespace cb {

struct PlanLink {
  double bytes_per_s = 0; // 0: the backend model's own figure
  std::string source;     // in words, as the plan's header says it
};

// The measured link in `results` (read from `path`, named in every message) for a plan of
// `backend`. Throws InputError naming the file when it holds no usable inter-node record, when
// its run used another backend, or when a record's rate is not a link rate.
PlanLink measured_link_of(const ResultsFile& results, const std::string& path,
                          const std::string& backend);

// The plan's link from the flags: --plan-link (bytes/s, as typed in `link_text`) wins; else
// --plan-from's file (loaded and checked by the results loader); else none (source empty: the
// model says its own). When both are given the file is still read and checked, and the source
// says the flag won over it.
PlanLink plan_link_from(double link_bps, const std::string& link_text, const std::string& from_path,
                        const std::string& backend);

class Communicator;
struct NodeLayout;

// Whether `run` measures the link for its plan before its sweep (runtime/family.hpp,
// calibrate_link): neither --plan-link nor --plan-from given, the largest of `counts` spans
// nodes, and a chosen suite's family plans on the link across nodes. Not for a job whose counts
// all stay within a node, nor for suites that never cross the network.
bool wants_link_calibration(const RunConfig& config, const NodeLayout& layout,
                            const std::vector<int>& counts, const std::vector<std::string>& suites);

// Resolves config.plan_link_bps and plan_link_source from its --plan-link and --plan-from, for a
// plan of `backend` (in the launching process and in `plan`). Throws InputError as above.
void resolve_plan_link(RunConfig& config, const std::string& backend);
// The same in a job: rank 0 reads the file once for every rank (a file read by every rank of a
// thousand nodes would storm the file system it sits on) and every rank gets its answer, or the
// same InputError.
void share_plan_link(const Communicator& world, RunConfig& config, const std::string& backend);

} // namespace cb
