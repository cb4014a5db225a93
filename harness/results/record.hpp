#pragma once
// The results schema (v1) as C++ types. results/results.schema.json is the contract; this is its
// in-memory form. Free-form parts (params, metrics, per-rank figures, extras such as a link
// matrix) stay JSON so every family can carry what it needs without touching this header.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "results/record_state.hpp"

namespace cb {

inline constexpr const char* kResultsSchemaName = "clusterbench.results";
inline constexpr int kResultsSchemaVersion = 1;

// Raw own samples a record keeps per rank, for at most kRankSamplesRanks of its ranks: the
// per-rank summaries (median_s, p99_s, shortest_share) cover every rank; the raw times are kept
// only where they explain something (docs/DESIGN.md, "Results schema"), so a record of a
// thousand ranks stays a few numbers per rank.
inline constexpr std::size_t kRankSamplesCap = 128;
inline constexpr std::size_t kRankSamplesRanks = 3;

// The rank the others waited for in a collective (runtime/straggler.hpp): it arrived last, so its
// own time was the shortest in most samples, and its median own time is clearly below theirs.
struct StragglerRank {
  int rank = 0; // world rank
  std::string host;
  int device = 0; // the backend's ordinal (CUDA's: 0 on every rank seeing one GPU)
  double shortest_share = 0;  // fraction of samples in which its own time was the shortest
  double median_s = 0;        // its median own time, seconds per operation
  double others_median_s = 0; // the median of the other ranks' median own times
  int nvml_index = -1;        // nvidia-smi's index, the name an operator finds a GPU by; -1: none
  std::string pci_bus_id = ""; // "" where the backend has none (the host backend)
};

class RankIdentities;

struct Record {
  std::string suite;     // compute | links | collectives | storage
  std::string case_name; // "case" in JSON
  nlohmann::json params = nlohmann::json::object();
  int gpus = 0; // devices taking part (ranks on the host backend)
  int nodes = 1;
  int ranks_per_node = 0;
  std::string tier = "intra";    // intra | inter
  std::vector<double> samples_s; // one per batch: the batch time / ops, max over ranks
  Stats stats;                   // of samples_s
  nlohmann::json metrics = nlohmann::json::object(); // name_with_unit -> number
  nlohmann::json per_rank = nlohmann::json::array(); // one object per rank
  // The run whose header says where the per_rank entries ran, when they leave it out (written
  // "per_rank_run"; results/rank_identity.hpp); empty when the entries say it themselves.
  std::string per_rank_run;
  // That header, where the loader read the record with it: the entries are not given the fields
  // back (a copy of every rank's host and UUID in every record: a quarter of the memory of a
  // whole cluster's file); rank_field() reads them through it. Shared by a file's records.
  std::shared_ptr<const RankIdentities> identities;
  std::optional<StragglerRank> straggler;            // collectives: the rank waited for, if any
  DataCheck check = DataCheck::skipped;              // pass | fail | skipped
  RecordStatus status = RecordStatus::ok;            // ok | noisy | skipped | failed
  std::string reason;                                // why skipped / failed / noisy
  nlohmann::json extra = nlohmann::json::object();   // family-specific data (matrices, counts)
};

struct ResultsFile {
  nlohmann::json run = nlohmann::json::object();
  std::vector<Record> records;
  nlohmann::json fits = nlohmann::json::object();
};

// Whether a record's per-rank figures include each rank's wait for the others. A collective's own
// time lasts until the slowest rank's data reaches it, so its lowest per-rank figure is a rank
// that waited (on 6 emulated nodes with cbnode3 slow: cbnode4, next after it in the ring, at
// 0.66x the median, cbnode3 above it), never a slow GPU; the rank waited for is `straggler`'s to
// name. Compute, storage and workload ranks work on their own: their lowest figure is the slowest.
inline bool per_rank_figures_include_waiting(const Record& r) { return r.suite == "collectives"; }

nlohmann::json stats_to_json(const Stats& s);
Stats stats_from_json(const nlohmann::json& j);
nlohmann::json straggler_to_json(const StragglerRank& s);
nlohmann::json record_to_json(const Record& r);
nlohmann::json results_to_json(const ResultsFile& f);

} // namespace cb
