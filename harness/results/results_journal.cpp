#include "results/results_journal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

#include "core/error.hpp"
#include "core/text_file.hpp"
#include "results/json_file.hpp"
#include "results/rank_identity.hpp"
#include "results/results_io.hpp"

namespace cb {
namespace {

using nlohmann::json;

json run_field(const json& run, const char* key) {
  auto it = run.find(key);
  return it == run.end() ? json() : *it;
}

// The header, when `line` is one.
std::optional<json> parse_header(std::string_view line) {
  json header;
  try {
    header = json::parse(line);
  } catch (const json::exception&) {
    return std::nullopt;
  }
  if (!header.is_object())
    return std::nullopt;
  auto schema = header.find("schema");
  auto before = header.find("records_before");
  if (schema == header.end() || *schema != kJournalSchemaName || before == header.end() ||
      !before->is_number_unsigned()) {
    return std::nullopt;
  }
  return header;
}

} // namespace

std::string journal_path_for(const std::string& results_path) {
  struct stat info {};
  std::string target = results_path;
  if (::lstat(results_path.c_str(), &info) == 0 && S_ISLNK(info.st_mode)) {
    std::error_code ec;
    const auto resolved = std::filesystem::canonical(results_path, ec);
    if (!ec)
      target = resolved.string();
  }
  return target + ".journal";
}

std::string journal_header(const json& run, std::size_t records_before) {
  const json header = {{"schema", kJournalSchemaName},
                       {"schema_version", 1},
                       {"run_id", run_field(run, "id")},
                       {"run_started", run_field(run, "started")},
                       {"records_before", records_before}};
  return header.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

bool is_results_journal(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return false;
  // The header is short: a first line longer than this is not one.
  std::string head(4096, '\0');
  const ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  if (n <= 0)
    return false;
  head.resize(static_cast<std::size_t>(n));
  const auto end = head.find('\n');
  return end != std::string::npos && parse_header(std::string_view(head).substr(0, end));
}

std::size_t merge_results_journal(ResultsFile& results, const std::string& path) {
  const std::string journal = journal_path_for(path);
  struct stat info {};
  if (::lstat(journal.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return 0;
  std::string text;
  try {
    text = read_text_file(journal);
  } catch (const InputError&) {
    return 0; // unreadable: the file is read as it is
  }
  const auto header_end = text.find('\n');
  if (header_end == std::string::npos)
    return 0;
  const auto header = parse_header(std::string_view(text).substr(0, header_end));
  if (!header || (*header)["run_id"] != run_field(results.run, "id") ||
      (*header)["run_started"] != run_field(results.run, "started")) {
    return 0;
  }
  const auto before = (*header)["records_before"].get<std::uint64_t>();
  if (before > results.records.size())
    return 0; // the file is older than the journal: its records would not follow on
  std::size_t index = static_cast<std::size_t>(before);
  std::size_t added = 0;
  std::size_t line = 1;
  // The run's: the journal's records are written against it, as the file's are.
  const auto ids = std::make_shared<const RankIdentities>(results.run);
  for (std::size_t pos = header_end + 1; pos < text.size(); ++index) {
    const auto end = text.find('\n', pos);
    if (end == std::string::npos)
      break; // cut short: that record was not finished
    ++line;
    if (index >= results.records.size()) {
      const std::string where = shown(journal, 120) + ": line " + std::to_string(line);
      json j = parse_json_text(text.substr(pos, end - pos), where);
      results.records.push_back(
          reading_json(where, [&] { return record_from_json(std::move(j), where); }));
      if (ids->speaks_for(results.records.back()))
        results.records.back().identities = ids;
      ++added;
    }
    pos = end + 1;
  }
  return added;
}

} // namespace cb
