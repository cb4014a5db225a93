#pragma once
// Reading and writing results files.
//
// The writer is atomic and incremental: the whole file is written to a temporary name in the same
// directory and renamed over the target after every finished record, so a reader (or a crash)
// never sees a half-written file and finished records survive a kill -9.
// The loader validates the schema and throws InputError naming the file and the field.
#include <string>

#include "results/record.hpp"

namespace cb {

// Parses and validates; throws InputError("FILE: field ...: problem").
ResultsFile load_results(const std::string& path);
ResultsFile results_from_json(const nlohmann::json& j, const std::string& source_name);
Record record_from_json(const nlohmann::json& j, const std::string& where);

// Atomic write of a whole file (temp + fsync + rename). Throws InputError if the directory is not
// writable.
void write_results_atomic(const ResultsFile& results, const std::string& path);
void write_text_atomic(const std::string& text, const std::string& path);

class IncrementalResultsWriter {
public:
  // Writes the header at once, so an unwritable path fails before any measurement.
  IncrementalResultsWriter(std::string path, nlohmann::json run);
  void append(const Record& record);
  void set_run_field(const std::string& key, nlohmann::json value);
  const ResultsFile& results() const { return results_; }
  const std::string& path() const { return path_; }

private:
  void flush();
  std::string path_;
  ResultsFile results_;
};

} // namespace cb
