#pragma once
// What a pair test across nodes (links/pair_bw, links/pair_latency) writes into its record's
// `extra`, read once with every value checked: the node matrix of the rounds and sequential
// schedules, the screen's one-way figures and groups (`--pairs screen`), and the figures the
// second pass retested. The reader refuses what no pair test writes (arrays of different
// lengths, a node index out of range, a negative figure) with an InputError naming the file and
// the field, so nothing downstream meets an impossible figure.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cb {

// One one-way figure of the screen: node indices into `members`, the GPU slot, the round.
struct PairFigure {
  std::uint32_t src = 0;
  std::uint32_t dst = 0;
  std::uint32_t rail = 0;
  std::uint32_t round = 0;
  double value = 0; // in matrix_metric units
};

struct ScreenLayout {
  std::string groups; // "topology" | "sqrt"
  std::vector<int> group_of_node;
  std::vector<std::string> group_names;
  long long tests = 0;
  long long rounds = 0;
  int k_inside = 0, k_across = 0, k_confirm = 0;
  std::vector<std::string> notes;
};

// A figure the second pass measured again: an end against a known-good partner, or a pair.
struct Retest {
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  double value = 0;
};

struct PairTestRecord {
  std::string schedule;      // rounds | sequential | screen
  std::string matrix_of;     // "nodes" on a multi-node run
  std::string matrix_metric; // gbps | latency_us
  // Per node: its host, and the rank that led it (-1 when not recorded). A pair test writes each
  // member as its leader's rank identity (an object, whose host the run header may hold instead:
  // results/rank_identity.hpp); the contract's plain host names are read too.
  std::vector<std::string> members;
  std::vector<int> member_ranks;
  // members x members, row = source; NaN where no figure (the diagonal, a pair not measured).
  std::vector<double> matrix;
  std::vector<PairFigure> observations;
  std::optional<ScreenLayout> screen;
  std::vector<Retest> retests; // extra.second_pass's end_retests and pair_retests

  bool lower_is_better() const { return matrix_metric == "latency_us"; }
  bool has_matrix() const { return !matrix.empty(); }
  double cell(std::size_t src, std::size_t dst) const { return matrix[src * members.size() + dst]; }
};

// Whether `extra` is a pair test's across nodes (matrix_of "nodes" with members).
bool is_pair_test_across_nodes(const nlohmann::json& extra);

// InputError "SOURCE: extra.FIELD: ..." for a value no pair test writes.
PairTestRecord pair_test_from_json(const nlohmann::json& extra, const std::string& source);
// The fields PairTestRecord holds, as a pair test writes them (second_pass: its retests only).
nlohmann::json pair_test_to_json(const PairTestRecord& record);

} // namespace cb
