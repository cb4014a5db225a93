#include "results/results_io.hpp"
#include "results/json_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.hpp"

namespace cb {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& problem) {
  throw InputError(where + ": " + problem);
}

const json& require(const json& obj, const char* key, json::value_t type,
                    const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end())
    bad(where, std::string("missing field '") + key + "'");
  const bool ok =
      type == json::value_t::number_float
          ? it->is_number()
          : (type == json::value_t::number_integer ? it->is_number_integer() : it->type() == type);
  if (!ok) {
    static const std::map<json::value_t, const char*> names = {
        {json::value_t::object, "an object"},          {json::value_t::array, "an array"},
        {json::value_t::string, "a string"},           {json::value_t::number_float, "a number"},
        {json::value_t::number_integer, "an integer"}, {json::value_t::boolean, "a boolean"}};
    bad(where, std::string("field '") + key + "' must be " + names.at(type));
  }
  return *it;
}

void require_one_of(const json& obj, const char* key, std::initializer_list<const char*> allowed,
                    const std::string& where) {
  const std::string value = require(obj, key, json::value_t::string, where).get<std::string>();
  for (const char* a : allowed) {
    if (value == a)
      return;
  }
  std::string list;
  for (const char* a : allowed)
    list += std::string(list.empty() ? "" : "|") + a;
  bad(where, std::string("field '") + key + "' is '" + shown(value) + "', allowed " + list);
}

// Bounds of the figures a record holds: nothing measured takes a million seconds per operation,
// no rate or count reaches 1e12 of its unit, no run has a million nodes. A value past them is a
// broken file, not a measurement (results/results.schema.json states the same bounds).
constexpr long long kMaxCount = 1'000'000;
constexpr double kMaxSeconds = 1e6;
constexpr double kMaxMetric = 1e12;

long long bounded_integer(const json& obj, const char* key, long long min, long long max,
                          const std::string& where) {
  const json& value = require(obj, key, json::value_t::number_integer, where);
  // Unsigned first: a value past long long's range would wrap in get<long long>().
  bool in_range = false;
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    in_range =
        (min <= 0 || v >= static_cast<std::uint64_t>(min)) && v <= static_cast<std::uint64_t>(max);
  } else {
    const auto v = value.get<long long>();
    in_range = v >= min && v <= max;
  }
  if (!in_range) {
    bad(where, std::string("field '") + key + "' is " + shown(value.dump()) + ", allowed " +
                   std::to_string(min) + ".." + std::to_string(max));
  }
  return value.get<long long>();
}

// A finite number in [0, max] (exclusive of 0 when `positive`): the record names `name`.
double bounded_number(const json& value, const std::string& name, double max, bool positive,
                      const std::string& where) {
  if (!value.is_number())
    bad(where, "field '" + shown(name) + "' must be a number");
  const double x = value.get<double>();
  const bool ok = std::isfinite(x) && (positive ? x > 0 : x >= 0) && x <= max;
  if (!ok) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", max);
    bad(where, "field '" + shown(name) + "' is " + shown(value.dump()) + ", allowed " +
                   (positive ? "(0, " : "[0, ") + limit + "]");
  }
  return x;
}

Stats bounded_stats(const json& j, const std::string& where) {
  Stats s;
  if (auto it = j.find("count"); it != j.end())
    s.count = static_cast<std::size_t>(bounded_integer(j, "count", 0, 1'000'000'000, where));
  const std::pair<const char*, double Stats::*> seconds[] = {
      {"median_s", &Stats::median}, {"mean_s", &Stats::mean},     {"min_s", &Stats::min},
      {"max_s", &Stats::max},       {"stddev_s", &Stats::stddev}, {"cv", &Stats::cv},
      {"p05_s", &Stats::p05},       {"p95_s", &Stats::p95}};
  for (const auto& [key, field] : seconds) {
    if (auto it = j.find(key); it != j.end())
      s.*field = bounded_number(*it, std::string("stats.") + key, kMaxSeconds, false, where);
  }
  return s;
}

} // namespace

Record record_from_json(const json& j, const std::string& where) {
  if (!j.is_object())
    bad(where, "must be an object");
  Record r;
  r.suite = require(j, "suite", json::value_t::string, where).get<std::string>();
  r.case_name = require(j, "case", json::value_t::string, where).get<std::string>();
  r.params = require(j, "params", json::value_t::object, where);
  r.gpus = static_cast<int>(bounded_integer(j, "gpus", 1, kMaxCount, where));
  r.nodes = static_cast<int>(bounded_integer(j, "nodes", 1, kMaxCount, where));
  r.ranks_per_node = static_cast<int>(bounded_integer(j, "ranks_per_node", 0, kMaxCount, where));
  if (auto tier = j.find("tier"); tier != j.end()) {
    require_one_of(j, "tier", {"intra", "inter"}, where);
    r.tier = tier->get<std::string>();
  } else {
    r.tier = r.nodes > 1 ? "inter" : "intra";
  }
  const json& samples = require(j, "samples_s", json::value_t::array, where);
  r.samples_s.reserve(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const std::string name = "samples_s[" + std::to_string(i) + "]";
    r.samples_s.push_back(bounded_number(samples[i], name, kMaxSeconds, true, where));
  }
  r.stats = bounded_stats(require(j, "stats", json::value_t::object, where), where);
  r.metrics = require(j, "metrics", json::value_t::object, where);
  for (const auto& [name, value] : r.metrics.items())
    bounded_number(value, "metrics." + name, kMaxMetric, false, where);
  if (auto it = j.find("per_rank"); it != j.end()) {
    if (!it->is_array())
      bad(where, "field 'per_rank' must be an array");
    for (const auto& entry : *it) {
      if (!entry.is_object())
        bad(where, "field 'per_rank' must hold objects");
    }
    r.per_rank = *it;
  }
  require_one_of(j, "check", {"pass", "fail", "skipped"}, where);
  r.check = j["check"].get<std::string>();
  require_one_of(j, "status", {"ok", "noisy", "skipped", "failed"}, where);
  r.status = j["status"].get<std::string>();
  if (j.contains("reason"))
    r.reason = require(j, "reason", json::value_t::string, where).get<std::string>();
  if (j.contains("extra"))
    r.extra = require(j, "extra", json::value_t::object, where);
  return r;
}

ResultsFile results_from_json(const json& j, const std::string& source) {
  if (!j.is_object())
    bad(source, "not a clusterbench results file (top level is not an object)");
  const auto schema = require(j, "schema", json::value_t::string, source).get<std::string>();
  if (schema != kResultsSchemaName) {
    bad(source, "field 'schema' is '" + shown(schema) + "', expected '" + kResultsSchemaName + "'");
  }
  // Compared as the number it is: read into an int first, 4294967297 would wrap to 1.
  const json& version = require(j, "schema_version", json::value_t::number_integer, source);
  if (version != kResultsSchemaVersion) {
    bad(source, "field 'schema_version' is " + shown(version.dump()) +
                    ", this clusterbench reads " + std::to_string(kResultsSchemaVersion));
  }
  ResultsFile f;
  f.run = require(j, "run", json::value_t::object, source);
  const auto& records = require(j, "records", json::value_t::array, source);
  f.records.reserve(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    f.records.push_back(
        record_from_json(records[i], source + ": records[" + std::to_string(i) + "]"));
  }
  if (j.contains("fits"))
    f.fits = require(j, "fits", json::value_t::object, source);
  return f;
}

ResultsFile load_results(const std::string& path) {
  const json j = read_json_file(path);
  return reading_json(path, [&] { return results_from_json(j, path); });
}

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

// The file a write to `path` lands on: `path` itself, or the end of its chain of symbolic links
// (written through, the links kept). Throws for what may not be replaced.
std::string resolved_output(const std::string& path, const std::string& named) {
  struct stat link_info {};
  if (::lstat(path.c_str(), &link_info) != 0)
    return path; // a new file
  if (!S_ISLNK(link_info.st_mode)) {
    if (!S_ISREG(link_info.st_mode)) {
      throw InputError(named + ": is " + kind_of(link_info.st_mode) +
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
    throw InputError(named + ": is a symbolic link to " + kind_of(target_info.st_mode) +
                     "; clusterbench writes only regular files");
  }
  std::error_code ec;
  const auto target = std::filesystem::canonical(path, ec);
  if (ec)
    throw InputError(named + ": cannot follow the symbolic link (" + ec.message() + ")");
  return target.string();
}

} // namespace

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

void write_text_atomic(const std::string& text, const std::string& path,
                       const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  check_output_target(path, "", inputs);
  const fs::path target(resolved_output(path, shown(path, 120)));
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(shown(path, 120) + ": directory '" + shown(dir.string(), 120) +
                     "' does not exist");
  }
  const std::string tmp =
      (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()))).string();
  // O_EXCL | O_NOFOLLOW: the temporary name is ours alone; one left by a crashed run of the same
  // pid is removed only when it is a regular file.
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  struct stat stale {};
  if (fd < 0 && errno == EEXIST && ::lstat(tmp.c_str(), &stale) == 0 && S_ISREG(stale.st_mode) &&
      ::unlink(tmp.c_str()) == 0) {
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  }
  if (fd < 0)
    throw InputError(shown(path, 120) + ": cannot write (" + std::strerror(errno) + ")");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw RunError(shown(path, 120) + ": write failed (" + std::strerror(err) + ")");
    }
    done += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw InputError(shown(path, 120) + ": cannot write (" + std::strerror(err) + ")");
  }
}

void write_results_atomic(const ResultsFile& results, const std::string& path,
                          const std::vector<std::string>& inputs) {
  // One record per line, compact: a whole cluster's per-rank data indented one value per line was
  // over half whitespace. The run header stays indented for people reading it.
  // Text taken from other tools' logs may hold invalid UTF-8: it is written replaced (U+FFFD)
  // rather than failing the write.
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  const nlohmann::json j = results_to_json(results);
  std::string text = "{";
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    text += first ? "\n " : ",\n ";
    first = false;
    text += nlohmann::json(it.key()).dump(-1, ' ', false, kReplace) + ": ";
    if (it.key() == "records" && it->is_array()) {
      text += "[";
      for (std::size_t i = 0; i < it->size(); ++i)
        text += (i == 0 ? "\n  " : ",\n  ") + (*it)[i].dump(-1, ' ', false, kReplace);
      text += it->empty() ? "]" : "\n ]";
    } else {
      text += it->dump(1, ' ', false, kReplace);
    }
  }
  text += "\n}\n";
  write_text_atomic(text, path, inputs);
}

IncrementalResultsWriter::IncrementalResultsWriter(std::string path, nlohmann::json run,
                                                   std::timed_mutex* write_lock)
    : path_(std::move(path)), write_lock_(write_lock) {
  results_.run = std::move(run);
  flush();
}

void IncrementalResultsWriter::append(const Record& record) {
  results_.records.push_back(record);
  flush();
}

void IncrementalResultsWriter::set_run_field(const std::string& key, nlohmann::json value) {
  results_.run[key] = std::move(value);
  flush();
}

void IncrementalResultsWriter::flush() {
  std::unique_lock<std::timed_mutex> held;
  if (write_lock_)
    held = std::unique_lock(*write_lock_);
  write_results_atomic(results_, path_);
}

} // namespace cb
