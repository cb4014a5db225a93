#pragma once
// A whole results file written record by record under a temporary name and renamed over its
// target at the end (results_text.hpp lays it out): what `fit --out`, `import` and
// write_results_atomic write, in the memory of one record rather than of the file.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/atomic_file.hpp"
#include "results/record.hpp"
#include "results/results_text.hpp"

namespace cb {

class ResultsFileWriter {
public:
  // check_output_target(path, "", inputs) first; InputError for a path that may not be written.
  ResultsFileWriter(const std::string& path, const nlohmann::json& fits, InvalidUtf8 utf8,
                    const std::vector<std::string>& inputs = {});
  // With InvalidUtf8::refuse, text that is not UTF-8 throws nlohmann's type_error and nothing of
  // the record is written.
  void add(const Record& record);
  // From here on, per_rank entries are written without what this header says of their rank
  // (rank_identity.hpp): `run` must be the header commit() writes.
  void set_rank_identities(const nlohmann::json& run) { ids_ = RankIdentities(run); }
  // The run header and the schema, then the atomic rename. Never called (an error on the way):
  // the target is left as it was.
  void commit(const nlohmann::json& run);
  std::size_t records() const { return records_; }

private:
  void flush();
  AtomicFile file_;
  InvalidUtf8 utf8_;
  RankIdentities ids_;
  std::string buffer_;
  std::size_t records_ = 0;
};

} // namespace cb
