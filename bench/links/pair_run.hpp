#pragma once
// One pair test as it runs (LinksCase::run_pair_test), cut along its jobs: the first pass (the
// pairs within each node and the node pairs across nodes in rounds, pair_first_pass.cpp), the
// second pass across nodes (pair_second_pass.cpp), the screen that replaces both across nodes
// with --pairs screen (pair_screen.cpp), and the record (pair_record.cpp). PairRun holds what
// they share; rank 0 alone holds the figures.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "links/pair_naming.hpp"
#include "links/pair_probe.hpp"
#include "links/pair_progress.hpp"
#include "links/pair_schedule.hpp"

namespace cb {

struct PairRun {
  using Pair = std::pair<int, int>;
  PairRun(const CaseContext& ctx, Record& record, const PairProbe& probe,
          std::function<double(double)> value_of, std::string metric, bool rails);

  const CaseContext& ctx;
  Record& record;
  const PairProbe& probe;
  std::function<double(double)> value_of; // a pair's median seconds -> its figure (`metric`)
  std::string metric;
  bool rails; // across nodes every GPU i of a node pair with GPU i at once
  PairTiers tiers;
  std::string schedule; // "rounds", "sequential" or "screen" (pair_schedule_for: "" is by size)
  bool sequential, root, multi_node, symmetric;
  int n; // ranks
  PairRule rule;
  MeasureSettings used;                   // the settings measure_pair_rounds() samples with
  std::unique_ptr<PairProgress> progress; // rank 0

  PairTimes intra, inter;
  // Rank 0: each rank's figures as source and as destination.
  std::vector<std::vector<double>> out_of, into;
  // With rails, rank 0 keeps each node pair's slowest rail; every rail still counts in its ranks'
  // figures (each_rail).
  std::function<int(int)> node_of_rails;
  std::function<void(Pair, double)> each_rail;

  // Counts a rank pair's figure for both its ranks (rank 0).
  void add_pair(Pair p, double seconds);
  // on_round for measure_pair_rounds: the progress file follows `tier`.
  std::function<void(int)> track(const std::string& tier, int rounds);
  // The worse of two figures of one pair (its two directions, or two rails).
  double worse(double x, double y) const;
  // The host of node index `node`, as the record names it.
  nlohmann::json host_of_node(int node) const;
};

// What the second pass measured and found (rank 0 holds naming and the figures).
struct SecondPass {
  std::unique_ptr<PairNaming> naming;
  long long wrong = 0;
  int capped = 0, settled = 0;
  std::vector<std::pair<int, int>> end_worst; // each end retest's slowest rank pair
  int rounds_measured = 0;
  double seconds = 0;
};

// The first pass: within the nodes in rounds (or one pair at a time), and across nodes in rounds
// unless the schedule is the screen.
void run_first_pass(PairRun& run);
// Across nodes after the rounds: rank 0 judges, every rank measures the retests it is given.
SecondPass run_second_pass(PairRun& run);
// The record of the rounds (or sequential) and their second pass: matrices, statistics, per rank.
void write_rounds_record(PairRun& run, const SecondPass& pass);
// The record's second_pass (rank 0, after write_rounds_record).
nlohmann::json second_pass_json(const PairRun& run, const SecondPass& pass);
// Its place in a record whose probe is not judged across nodes (PairProbe): judged false, why.
nlohmann::json second_pass_not_judged_json(const PairRun& run);
// How the (sub-)rounds were sampled, in a fixed-size summary: extra.sub_rounds (rank 0).
void write_sub_rounds(const PairRun& run, const std::vector<const PairTimes*>& passes);
// The per-rank figures (rank 0).
void write_per_rank(PairRun& run);
// Each node's own rank x rank matrix, for extra.intra_matrices, and their median (rank 0).
void write_intra_matrices(PairRun& run);
// extra.matrix_of "nodes" and matrix_members, the host of each node index (rank 0).
void write_matrix_members(PairRun& run);
// The record's stats of one value per measured unit (seconds), and at most 16,384 of them, evenly
// spaced order statistics, as samples_s; the notes say what a value is, for all or those kept.
void write_pair_samples(PairRun& run, std::vector<double> medians, const std::string& unit_note,
                        const std::string& kept_note);

} // namespace cb
