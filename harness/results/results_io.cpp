#include "results/results_io.hpp"
#include "results/json_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
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
  bad(where, std::string("field '") + key + "' is '" + value + "', allowed " + list);
}

} // namespace

Record record_from_json(const json& j, const std::string& where) {
  if (!j.is_object())
    bad(where, "must be an object");
  Record r;
  r.suite = require(j, "suite", json::value_t::string, where).get<std::string>();
  r.case_name = require(j, "case", json::value_t::string, where).get<std::string>();
  r.params = require(j, "params", json::value_t::object, where);
  r.gpus = require(j, "gpus", json::value_t::number_integer, where).get<int>();
  if (r.gpus < 1)
    bad(where, "field 'gpus' must be at least 1");
  r.nodes = require(j, "nodes", json::value_t::number_integer, where).get<int>();
  r.ranks_per_node = require(j, "ranks_per_node", json::value_t::number_integer, where).get<int>();
  r.tier = j.value("tier", std::string(r.nodes > 1 ? "inter" : "intra"));
  for (const auto& s : require(j, "samples_s", json::value_t::array, where)) {
    if (!s.is_number())
      bad(where, "field 'samples_s' must hold numbers");
    r.samples_s.push_back(s.get<double>());
  }
  r.stats = stats_from_json(require(j, "stats", json::value_t::object, where));
  r.metrics = require(j, "metrics", json::value_t::object, where);
  for (const auto& [name, value] : r.metrics.items()) {
    if (!value.is_number())
      bad(where, "metric '" + name + "' must be a number");
  }
  r.per_rank = j.value("per_rank", json::array());
  require_one_of(j, "check", {"pass", "fail", "skipped"}, where);
  r.check = j["check"].get<std::string>();
  require_one_of(j, "status", {"ok", "noisy", "skipped", "failed"}, where);
  r.status = j["status"].get<std::string>();
  r.reason = j.value("reason", std::string());
  r.extra = j.value("extra", json::object());
  return r;
}

ResultsFile results_from_json(const json& j, const std::string& source) {
  if (!j.is_object())
    bad(source, "not a clusterbench results file (top level is not an object)");
  const auto schema = require(j, "schema", json::value_t::string, source).get<std::string>();
  if (schema != kResultsSchemaName) {
    bad(source, "field 'schema' is '" + schema + "', expected '" + kResultsSchemaName + "'");
  }
  const int version =
      require(j, "schema_version", json::value_t::number_integer, source).get<int>();
  if (version != kResultsSchemaVersion) {
    bad(source, "field 'schema_version' is " + std::to_string(version) +
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
  f.fits = j.value("fits", json::object());
  return f;
}

ResultsFile load_results(const std::string& path) {
  return results_from_json(read_json_file(path), path);
}

void write_text_atomic(const std::string& text, const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(path + ": directory '" + dir.string() + "' does not exist");
  }
  const std::string tmp =
      (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()))).string();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw InputError(path + ": cannot write (" + std::strerror(errno) + ")");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw RunError(path + ": write failed (" + std::strerror(err) + ")");
    }
    done += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw InputError(path + ": cannot write (" + std::strerror(err) + ")");
  }
}

void write_results_atomic(const ResultsFile& results, const std::string& path) {
  // One record per line, compact: a whole cluster's per-rank data indented one value per line was
  // over half whitespace. The run header stays indented for people reading it.
  const nlohmann::json j = results_to_json(results);
  std::string text = "{";
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    text += first ? "\n " : ",\n ";
    first = false;
    text += nlohmann::json(it.key()).dump() + ": ";
    if (it.key() == "records" && it->is_array()) {
      text += "[";
      for (std::size_t i = 0; i < it->size(); ++i)
        text += (i == 0 ? "\n  " : ",\n  ") + (*it)[i].dump();
      text += it->empty() ? "]" : "\n ]";
    } else {
      text += it->dump(1);
    }
  }
  text += "\n}\n";
  write_text_atomic(text, path);
}

IncrementalResultsWriter::IncrementalResultsWriter(std::string path, nlohmann::json run)
    : path_(std::move(path)) {
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
  write_results_atomic(results_, path_);
}

} // namespace cb
