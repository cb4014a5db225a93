#include "results/output_target.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include "core/error.hpp"
#include "core/text_file.hpp"
#include "results/atomic_file.hpp"

namespace cb {
namespace {

// A results file as a writer lays it out: a JSON object whose last members are the schema's name
// and version (nlohmann::json orders keys, and no key of a results file sorts after these two),
// or whose first member is the name (writers that keep their keys' order: Python's json, a
// generator). A file that only mentions the name elsewhere is not one.
bool looks_like_our_results(const std::string& head, const std::string& tail) {
  static const std::regex opening(R"re(^\s*\{\s*"schema"\s*:\s*"clusterbench\.results"\s*[,}])re");
  if (std::regex_search(head, opening))
    return true;
  const auto first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || head[first] != '{')
    return false;
  static const std::regex ending(
      R"re("schema"\s*:\s*"clusterbench\.results"\s*(,\s*"schema_version"\s*:\s*[0-9]+\s*)?\}\s*$)re");
  return std::regex_search(tail, ending);
}

bool looks_like_our_report(const std::string& head) {
  const std::string start = std::string(kReportPageStart) + "clusterbench";
  return head.compare(0, start.size(), start) == 0;
}

bool starts_with(const std::string& head, std::string_view start) {
  return head.compare(0, start.size(), start) == 0;
}

bool looks_ours(OwnFile kind, const std::string& head, const std::string& tail) {
  switch (kind) {
  case OwnFile::results:
    return looks_like_our_results(head, tail);
  case OwnFile::html_report:
    return looks_like_our_report(head);
  case OwnFile::prometheus_textfile:
    return starts_with(head, kPrometheusTextfileStart);
  case OwnFile::junit_xml:
    return starts_with(head, kJUnitXmlStart);
  }
  return false;
}

const char* own_file_name(OwnFile kind) {
  switch (kind) {
  case OwnFile::results:
    return "a clusterbench results file";
  case OwnFile::html_report:
    return "a clusterbench report";
  case OwnFile::prometheus_textfile:
    return "a clusterbench Prometheus textfile";
  case OwnFile::junit_xml:
    return "a clusterbench JUnit report";
  }
  return "a clusterbench file";
}

} // namespace

std::string resolved_output(const std::string& path, const std::string& named) {
  struct stat link_info {};
  if (::lstat(path.c_str(), &link_info) != 0)
    return path; // a new file
  if (!S_ISLNK(link_info.st_mode)) {
    if (!S_ISREG(link_info.st_mode)) {
      throw InputError(named + ": is " + file_kind_name(link_info.st_mode) +
                       "; clusterbench writes only regular files");
    }
    return path;
  }
  struct stat target_info {};
  if (::stat(path.c_str(), &target_info) != 0) {
    throw InputError(named + ": is a symbolic link to nothing (" + std::strerror(errno) +
                     "); give the file itself");
  }
  if (!S_ISREG(target_info.st_mode)) {
    throw InputError(named + ": is a symbolic link to " + file_kind_name(target_info.st_mode) +
                     "; clusterbench writes only regular files");
  }
  std::error_code ec;
  const auto target = std::filesystem::canonical(path, ec);
  if (ec)
    throw InputError(named + ": cannot follow the symbolic link (" + ec.message() + ")");
  return target.string();
}

void check_output_target(const std::string& path, const std::string& flag,
                         const std::vector<std::string>& inputs) {
  const std::string named = (flag.empty() ? "" : flag + " ") + shown(path, 120);
  if (path.empty())
    throw InputError((flag.empty() ? std::string("output") : flag) + ": needs a file name");
  resolved_output(path, named);
  struct stat out_info {};
  if (::stat(path.c_str(), &out_info) != 0)
    return;
  for (const auto& input : inputs) {
    struct stat in_info {};
    if (::stat(input.c_str(), &in_info) == 0 && in_info.st_dev == out_info.st_dev &&
        in_info.st_ino == out_info.st_ino) {
      throw InputError(named + ": is the input " + shown(input, 120) +
                       "; give another file to write");
    }
  }
}

void refuse_foreign_file(const std::string& path, const std::string& flag, OwnFile kind) {
  const std::string named = (flag.empty() ? "" : flag + " ") + shown(path, 120);
  const std::string target = resolved_output(path, named);
  struct stat info {};
  if (::stat(target.c_str(), &info) != 0 || info.st_size == 0)
    return;
  // The first and the last KiB say it: a results file ends with its schema (the writer lays the
  // keys out in order, "schema" last), a page starts as every page of ours. No need to read 100 MB.
  constexpr std::size_t kEdge = 1024;
  std::ifstream in(target, std::ios::binary);
  std::string head(kEdge, '\0'), tail(kEdge, '\0');
  in.read(head.data(), kEdge);
  head.resize(static_cast<std::size_t>(in.gcount()));
  in.clear();
  const auto size = static_cast<std::size_t>(info.st_size);
  in.seekg(static_cast<std::streamoff>(size > kEdge ? size - kEdge : 0));
  in.read(tail.data(), kEdge);
  tail.resize(static_cast<std::size_t>(in.gcount()));
  if (!looks_ours(kind, head, tail)) {
    throw InputError(named + ": exists and is not " + own_file_name(kind) +
                     "; clusterbench replaces only files it wrote (remove it or give another "
                     "path)");
  }
}

void write_text_atomic(const std::string& text, const std::string& path,
                       const std::vector<std::string>& inputs, Durability durability) {
  check_output_target(path, "", inputs);
  AtomicFile file(resolved_output(path, shown(path, 120)), shown(path, 120));
  file.write(text);
  file.commit(durability);
}

} // namespace cb
