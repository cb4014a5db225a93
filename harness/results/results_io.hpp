#pragma once
// Reading and writing results files.
//
// The writer is atomic and incremental: the whole file is written to a temporary name in the same
// directory and renamed over the target after every finished record, so a reader (or a crash)
// never sees a half-written file and finished records survive a kill -9.
// The loader validates the schema and throws InputError naming the file and the field.
#include <mutex>
#include <string>
#include <vector>

#include "results/record.hpp"

namespace cb {

// Parses and validates; throws InputError("FILE: field ...: problem").
ResultsFile load_results(const std::string& path);
ResultsFile results_from_json(const nlohmann::json& j, const std::string& source_name);
Record record_from_json(const nlohmann::json& j, const std::string& where);

// Where any command may write a file (every --out, --html, the files beside a run). Throws
// InputError "FLAG PATH: ..." when `path` exists and is not a regular file (a device, FIFO,
// socket or directory is never replaced) or is one of `inputs` (the same device and inode, however
// it is spelled). A symbolic link is written through: the file it ends at is checked by the same
// rules and replaced, the link is kept; a link to nothing is refused.
void check_output_target(const std::string& path, const std::string& flag,
                         const std::vector<std::string>& inputs = {});

// Atomic write of a whole file (temp + fsync + rename), after check_output_target. Throws
// InputError if the directory is not writable.
void write_results_atomic(const ResultsFile& results, const std::string& path,
                          const std::vector<std::string>& inputs = {});
void write_text_atomic(const std::string& text, const std::string& path,
                       const std::vector<std::string>& inputs = {});

class IncrementalResultsWriter {
public:
  // Writes the header at once, so an unwritable path fails before any measurement. `write_lock`,
  // when given, is held across every write: whoever takes it (a rank about to exit) knows that no
  // write is half done.
  IncrementalResultsWriter(std::string path, nlohmann::json run,
                           std::timed_mutex* write_lock = nullptr);
  void append(const Record& record);
  void set_run_field(const std::string& key, nlohmann::json value);
  const ResultsFile& results() const { return results_; }
  const std::string& path() const { return path_; }

private:
  void flush();
  std::string path_;
  ResultsFile results_;
  std::timed_mutex* write_lock_ = nullptr;
};

} // namespace cb
