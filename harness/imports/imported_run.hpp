#pragma once
// What an importer makes of one file of another tool's output: records in our schema, plus the
// run facts the file states (hosts and devices, the command, library versions, start time), plus
// a warning for every line it could not read.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/record.hpp"

namespace cb {

struct ImportedRun {
  std::vector<Record> records;
  nlohmann::json hosts = nlohmann::json::array(); // [{host, devices: [{index, name, ...}]}]
  std::vector<std::string> argv;                  // the original command, when the file has it
  nlohmann::json versions = nlohmann::json::object();
  std::string started;               // ISO 8601, when the file says
  std::string backend = "host";      // cuda when the tool ran on GPUs
  std::vector<std::string> warnings; // "FILE:LINE: cannot parse: ..."

  // One warning per unreadable line, the first kLinesListed of them; the rest are counted and
  // close_warnings reports how many, so a log full of another program's output stays readable.
  void warn_line(const std::string& source, std::size_t line, const std::string& text);
  void close_warnings(const std::string& source);
  static constexpr std::size_t kLinesListed = 20;
  std::size_t lines_listed = 0, lines_not_listed = 0;
  // Adds a device under its host (hosts are kept in first-seen order, devices by index).
  void add_device(const std::string& host, const nlohmann::json& device);
};

// An imported measurement: one sample (the tool reports one figure per size), status ok, the
// check as the tool reports it, tier from the node count.
Record imported_record(const std::string& suite, const std::string& case_name,
                       nlohmann::json params, int gpus, int nodes, double seconds_per_op,
                       nlohmann::json metrics, const std::string& check);

} // namespace cb
