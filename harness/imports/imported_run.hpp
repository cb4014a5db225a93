#pragma once
// What an importer makes of one file of another tool's output: records in our schema, plus the
// run facts the file states (hosts and devices, the command, library versions, start time), plus
// a warning for every line it could not read.
#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/record.hpp"

namespace cb {

// Hosts and their devices as files state them: hosts in first-seen order, devices by index, a
// device named twice kept once. Adding costs O(log n), so a log naming thousands of ranks
// stays linear.
class HostList {
public:
  void add(const std::string& host, const nlohmann::json& device); // device: {index, ...}
  void merge(const nlohmann::json& hosts);                         // [{host, devices: [...]}]
  nlohmann::json to_json() const;

private:
  std::vector<std::string> order_;
  std::map<std::string, std::map<long long, nlohmann::json>> devices_;
};

// Takes each record an importer has finished, in the order of the file.
using RecordSink = std::function<void(Record&&)>;

struct ImportedRun {
  // Finished records go to `sink` when one is set (the import command writes each out as it
  // comes, so a large log's memory is that of its text and one table), else into `records`.
  std::vector<Record> records;
  RecordSink sink;
  std::size_t records_added = 0;
  void add_record(Record&& r);

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
  // Adds a device under its host; finish_hosts writes them into `hosts`.
  void add_device(const std::string& host, const nlohmann::json& device);
  void finish_hosts();
  HostList host_list;
};

// The fastest rate an imported figure may claim, in GB/s: 100 TB/s, ~50x the fastest GPU link
// (NVLink 5, 1.8 TB/s) and ~12x the fastest memory (HBM3e, ~8 TB/s) of 2026. A figure above it is
// an edited or garbled log, not a measurement.
inline constexpr double kMaxPlausibleGbps = 1e5;
// "" or why `metrics` claim a rate no hardware reaches: "busbw_gbps", "gbps" (per rank or in all)
// above kMaxPlausibleGbps. algbw is not bounded: on one GPU an in-place all_reduce moves nothing,
// and nccl-tests still divides its size by a few microseconds.
std::string implausible_rate(const nlohmann::json& metrics);

// An imported measurement: one sample (the tool reports one figure per size), status ok, the
// check as the tool reports it, tier from the node count.
Record imported_record(const std::string& suite, const std::string& case_name,
                       nlohmann::json params, int gpus, int nodes, double seconds_per_op,
                       nlohmann::json metrics, DataCheck check);

} // namespace cb
