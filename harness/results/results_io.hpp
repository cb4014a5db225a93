#pragma once
// Reading and writing results files.
//
// Every write is atomic: the file is written under a temporary name in the same directory and
// renamed over the target, so a reader (or a crash) never sees a half-written file. A run's file
// grows record by record through IncrementalResultsWriter (incremental_writer.hpp), whose
// finished records survive a kill -9.
// The loader validates the schema and throws InputError naming the file and the field.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "results/incremental_writer.hpp"
#include "results/output_target.hpp"
#include "results/record.hpp"

namespace cb {

// Parses and validates; throws InputError("FILE: field ...: problem"). The records array is
// read one record at a time, each moved into its Record, so memory is that of the records and
// the file's text, not of a tree of the whole file besides. Records a run finished but had not
// yet written into the file (its journal, incremental_writer.hpp) are read with it.
ResultsFile load_results(const std::string& path);

// A JSON document read once, the way load_results reads a results file, for the commands that
// also take other documents (Google Benchmark JSON, a spec): top() is its top level with the
// elements of a top-level "records" array left out (they were read as records on the way, so a
// whole cluster's file never exists as one tree); results() checks it as a results file, as
// load_results does, and hands those records over with the journal's. Constructing it throws
// InputError for a file that cannot be read or is not JSON.
class ResultsDocument {
public:
  explicit ResultsDocument(const std::string& path);
  ~ResultsDocument();
  ResultsDocument(const ResultsDocument&) = delete;
  ResultsDocument& operator=(const ResultsDocument&) = delete;

  const nlohmann::json& top() const { return top_; }
  // Once: the records are moved out.
  ResultsFile results();

private:
  struct Reading;
  std::string path_;
  nlohmann::json top_;
  std::unique_ptr<Reading> reading_;
};
ResultsFile results_from_json(const nlohmann::json& j, const std::string& source_name);
// The copy takes the record's free-form parts (params, metrics, per_rank, extra) by copy, the
// other by move.
Record record_from_json(const nlohmann::json& j, const std::string& where);
Record record_from_json(nlohmann::json&& j, const std::string& where);

// results_from_json's checks of the top level (object, schema, schema_version, run, records,
// fits), in its order, with the records read by `read_records` when their turn comes: the
// streaming loader hands over the ones it read on the way.
using RecordsReader = std::function<void(const nlohmann::json& records, std::vector<Record>& out)>;
ResultsFile results_from_top_level(const nlohmann::json& j, const std::string& source,
                                   const RecordsReader& read_records);

// The whole file at once (results_file_writer.hpp writes it record by record).
void write_results_atomic(const ResultsFile& results, const std::string& path,
                          const std::vector<std::string>& inputs = {});

} // namespace cb
