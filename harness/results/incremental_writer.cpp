#include "results/incremental_writer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "results/atomic_file.hpp"
#include "results/output_target.hpp"
#include "results/results_journal.hpp"
#include "results/results_text.hpp"

namespace cb {
namespace {

// The file is written again when the journal would hold this fraction of its bytes: versions
// grow by at least 1/kRewriteFraction each, so all of them together are at most
// (kRewriteFraction + 1) times the last.
constexpr std::uint64_t kRewriteFraction = 8;
// Below this size the file is written again after every record, as a run's file always was:
// small runs' files stay complete on their own, and the bytes that costs are bounded by a
// constant, not by the run.
constexpr std::uint64_t kAlwaysRewriteBytes = 64 * 1024;

bool exists(const std::string& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0;
}

// Appends `bytes` to `fd`; false (errno set) when the disk refuses them.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

} // namespace

IncrementalResultsWriter::IncrementalResultsWriter(std::string path, nlohmann::json run,
                                                   std::timed_mutex* write_lock)
    : path_(std::move(path)), journal_path_(journal_path_for(path_)), run_(std::move(run)),
      ids_(run_), write_lock_(write_lock) {
  check_output_target(path_, "");
  refuse_foreign_journal();
  const bool stale_journal = exists(journal_path_);
  write_file(nullptr);
  // An earlier run's journal: its file has just been replaced, so its records are not this
  // run's (and a loader would not read them into this file: the run id differs).
  if (stale_journal)
    ::unlink(journal_path_.c_str());
}

IncrementalResultsWriter::~IncrementalResultsWriter() {
  if (journal_records_ == 0)
    return;
  try {
    write_file(nullptr);
  } catch (...) {
    // The records stay in the journal, where every loader reads them.
  }
}

void IncrementalResultsWriter::refuse_foreign_journal() const {
  if (exists(journal_path_) && !is_results_journal(journal_path_)) {
    throw InputError(shown(journal_path_, 120) +
                     " exists and is not a journal clusterbench wrote (a run keeps records there "
                     "beside " +
                     shown(path_, 120) + "); move it away or write another file");
  }
}

void IncrementalResultsWriter::append(const Record& record) {
  std::string line;
  append_record_json(line, record, InvalidUtf8::replace, ids_);
  const std::uint64_t pending = journal_bytes_ + line.size() + 1;
  if (file_bytes_ + pending <= kAlwaysRewriteBytes || pending * kRewriteFraction >= file_bytes_)
    write_file(&line);
  else
    append_to_journal(line);
}

void IncrementalResultsWriter::update_run(const nlohmann::json& fields) {
  for (const auto& [key, value] : fields.items())
    run_[key] = value;
  write_file(nullptr);
}

void IncrementalResultsWriter::write_file(const std::string* last_line) {
  const auto held = hold_write_lock();
  const std::string named = shown(path_, 120);
  check_output_target(path_, "");
  AtomicFile file(resolved_output(path_, named), named);
  std::size_t records = records_in_file_;
  // Written out in pieces of about a MiB: a write per record would cost more than the copy.
  std::string pending;
  auto put = [&](std::string_view bytes) {
    pending += bytes;
    if (pending.size() >= (std::size_t{1} << 20)) {
      file.write(pending);
      pending.clear();
    }
  };
  if (file_.valid())
    file.copy_from(file_.get(), records_end_); // the head and every record already in the file
  else
    put(results_text_head(nlohmann::json::object(), InvalidUtf8::replace));
  if (journal_records_ > 0) {
    // The journal's lines, each a record as the file holds it.
    std::vector<char> buffer(std::size_t{1} << 20);
    std::uint64_t offset = journal_header_bytes_;
    const std::uint64_t end = journal_header_bytes_ + journal_bytes_;
    bool line_start = true;
    while (offset < end) {
      const ssize_t n =
          ::pread(journal_.get(), buffer.data(),
                  std::min<std::uint64_t>(buffer.size(), end - offset), static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        throw RunError(shown(journal_path_, 120) + ": cannot read back (" +
                       std::strerror(n < 0 ? errno : EIO) + ")");
      }
      std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
      while (!chunk.empty()) {
        if (line_start) {
          put(record_separator(records++));
          line_start = false;
        }
        const auto newline = chunk.find('\n');
        put(chunk.substr(0, newline));
        if (newline == std::string_view::npos)
          break;
        line_start = true;
        chunk.remove_prefix(newline + 1);
      }
      offset += static_cast<std::uint64_t>(n);
    }
  }
  if (last_line) {
    put(record_separator(records++));
    put(*last_line);
  }
  file.write(pending);
  const std::uint64_t records_end = file.size();
  file.write(results_text_tail(records, run_, InvalidUtf8::replace));
  const std::uint64_t size = file.size();
  file_ = file.commit();
  bytes_written_ += size;
  file_bytes_ = size;
  records_end_ = records_end;
  records_in_file_ = records;
  if (journal_.valid()) {
    // Every record of the journal is in the file now. Killed before this line, the journal is
    // left, and a loader skips the records the file already holds.
    journal_ = UniqueFd();
    ::unlink(journal_path_.c_str());
    journal_header_bytes_ = journal_bytes_ = 0;
    journal_records_ = 0;
  }
}

void IncrementalResultsWriter::append_to_journal(const std::string& line) {
  const auto held = hold_write_lock();
  if (!journal_.valid()) {
    // A new journal appears whole (header and first line) by a rename, as the file does.
    refuse_foreign_journal();
    const std::string header = journal_header(run_, records_in_file_);
    AtomicFile journal(journal_path_, shown(journal_path_, 120));
    journal.write(header);
    journal.write(line);
    journal.write("\n");
    journal_ = journal.commit();
    journal_header_bytes_ = header.size();
    bytes_written_ += header.size();
  } else {
    const std::uint64_t whole = journal_header_bytes_ + journal_bytes_;
    if (!write_all(journal_.get(), line) || !write_all(journal_.get(), "\n") ||
        ::fdatasync(journal_.get()) != 0) {
      const int err = errno;
      // Cut back to the last whole line, so that the next record follows it.
      if (::ftruncate(journal_.get(), static_cast<off_t>(whole)) == 0)
        ::lseek(journal_.get(), static_cast<off_t>(whole), SEEK_SET);
      throw RunError(shown(journal_path_, 120) + ": write failed (" + std::strerror(err) + ")");
    }
  }
  journal_bytes_ += line.size() + 1;
  ++journal_records_;
  bytes_written_ += line.size() + 1;
}

} // namespace cb
