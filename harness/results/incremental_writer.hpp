#pragma once
// The results file of a run, kept current as its records finish, in time and disk traffic linear
// in the records (docs/DESIGN.md, "The results file of a run").
//
// After every record the file on disk is a whole, valid results file (each version renamed into
// place) and the record is on disk: in the file, or in the journal beside it (results_journal.hpp),
// one fsync'ed line. The file is written again, its records copied from its last version and the
// journal's added, when the journal would reach an eighth of the file's bytes, and after every
// record while the file is small: the versions grow geometrically, so the bytes written stay
// within about ten times the final file's however many records there are (rewriting the file
// after every record was quadratic). The journal is removed once its records are in the file.
// Every loader reads a journal with its file (load_results), and the destructor folds it in, so a
// run ended by an error leaves a complete file; a process killed outright (kill -9, the
// watchdog's exit) leaves its last records in the journal, and they are read from there.
// Memory is that of one record: the records are not kept.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "core/unique_fd.hpp"
#include "results/rank_identity.hpp"
#include "results/record.hpp"

namespace cb {

class IncrementalResultsWriter {
public:
  // Writes the file (no records yet) at once, so an unwritable path fails before any
  // measurement. A journal an earlier run left beside the file is removed once the new file is
  // written; a file of that name that is not a journal is refused (InputError), never replaced.
  // `write_lock`, when given, is held across every write of the file or the journal: whoever
  // takes it (a rank about to exit, runtime/launcher_watch.hpp) knows no write is half done.
  IncrementalResultsWriter(std::string path, nlohmann::json run,
                           std::timed_mutex* write_lock = nullptr);
  // Writes the journal's records into the file, when there are any (errors are swallowed: the
  // journal keeps them).
  ~IncrementalResultsWriter();
  IncrementalResultsWriter(const IncrementalResultsWriter&) = delete;
  IncrementalResultsWriter& operator=(const IncrementalResultsWriter&) = delete;

  void append(const Record& record);
  // Sets fields of the run header (an object of them) and writes the whole file: one version for
  // all of them.
  void update_run(const nlohmann::json& fields);
  void set_run_field(const std::string& key, nlohmann::json value) {
    update_run({{key, std::move(value)}});
  }

  const std::string& path() const { return path_; }
  std::size_t records() const { return records_in_file_ + journal_records_; }
  // Every version of the file and every journal line written so far: the writer's disk traffic.
  std::uint64_t bytes_written() const { return bytes_written_; }

private:
  void write_file(const std::string* last_line);
  void append_to_journal(const std::string& line);
  void refuse_foreign_journal() const;

  std::string path_;
  std::string journal_path_;
  nlohmann::json run_;
  RankIdentities ids_;              // of run_'s hosts: what per_rank entries leave out
  UniqueFd file_;                   // the file's last version, read back by the next one
  std::uint64_t file_bytes_ = 0;    // its size
  std::uint64_t records_end_ = 0;   // where its last record ends
  std::size_t records_in_file_ = 0; // its records
  UniqueFd journal_;                // open while there is a journal
  std::uint64_t journal_header_bytes_ = 0;
  std::uint64_t journal_bytes_ = 0; // of whole record lines, after the header
  std::size_t journal_records_ = 0;
  std::uint64_t bytes_written_ = 0;
  std::timed_mutex* write_lock_ = nullptr;
  // Holds write_lock_ for one write (nothing when there is none).
  std::unique_lock<std::timed_mutex> hold_write_lock() const {
    return write_lock_ ? std::unique_lock(*write_lock_) : std::unique_lock<std::timed_mutex>();
  }
};

} // namespace cb
