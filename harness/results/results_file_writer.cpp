#include "results/results_file_writer.hpp"

#include "core/error.hpp"
#include "results/output_target.hpp"

namespace cb {
namespace {

// Written out in pieces of about this size: a syscall per record would cost more than the
// formatting for small records, one string of the whole file as much memory as the file.
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

std::string checked_target(const std::string& path, const std::vector<std::string>& inputs) {
  check_output_target(path, "", inputs);
  return resolved_output(path, shown(path, 120));
}

} // namespace

ResultsFileWriter::ResultsFileWriter(const std::string& path, const nlohmann::json& fits,
                                     InvalidUtf8 utf8, const std::vector<std::string>& inputs)
    : file_(checked_target(path, inputs), shown(path, 120)), utf8_(utf8),
      buffer_(results_text_head(fits, utf8)) {}

void ResultsFileWriter::add(const Record& record) {
  const std::size_t before = buffer_.size();
  buffer_ += record_separator(records_);
  try {
    append_record_json(buffer_, record, utf8_, ids_);
  } catch (...) {
    buffer_.resize(before);
    throw;
  }
  ++records_;
  if (buffer_.size() >= kFlushBytes)
    flush();
}

void ResultsFileWriter::commit(const nlohmann::json& run) {
  buffer_ += results_text_tail(records_, run, utf8_);
  flush();
  file_.commit();
}

void ResultsFileWriter::flush() {
  file_.write(buffer_);
  buffer_.clear();
}

} // namespace cb
