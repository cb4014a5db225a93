#pragma once
// The results schema (v1) as C++ types. results/results.schema.json is the contract; this is its
// in-memory form. Free-form parts (params, metrics, per-rank figures, extras such as a link
// matrix) stay JSON so every family can carry what it needs without touching this header.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "results/record_state.hpp"

namespace cb {

inline constexpr const char* kResultsSchemaName = "clusterbench.results";
inline constexpr int kResultsSchemaVersion = 1;

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

nlohmann::json stats_to_json(const Stats& s);
Stats stats_from_json(const nlohmann::json& j);
nlohmann::json record_to_json(const Record& r);
nlohmann::json results_to_json(const ResultsFile& f);

} // namespace cb
