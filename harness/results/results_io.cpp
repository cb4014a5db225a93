#include "results/results_io.hpp"
#include "results/json_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>

#include "core/error.hpp"
#include "core/format.hpp"
#include "results/metric_table.hpp"
#include "results/per_rank_rates.hpp"
#include "results/rank_identity.hpp"
#include "results/record_bounds.hpp"
#include "results/record_figures.hpp"
#include "results/results_file_writer.hpp"

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
    // A switch, not a map keyed by value_t: nlohmann orders the number types as one, so such a
    // map found "a number" for an integer field.
    const char* name = "a boolean";
    switch (type) {
    case json::value_t::object:
      name = "an object";
      break;
    case json::value_t::array:
      name = "an array";
      break;
    case json::value_t::string:
      name = "a string";
      break;
    case json::value_t::number_float:
      name = "a number";
      break;
    case json::value_t::number_integer:
      name = "an integer";
      break;
    default:
      break;
    }
    bad(where, std::string("field '") + key + "' must be " + name);
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
    const std::string limit = format_figure_compact(max, 6);
    bad(where, "field '" + shown(name) + "' is " + shown(value.dump()) + ", allowed " +
                   (positive ? "(0, " : "[0, ") + limit + "]");
  }
  return x;
}

Stats bounded_stats(const json& j, const std::vector<double>& samples, const std::string& where) {
  Stats s;
  s.count = samples.size(); // a file from before the count was kept: every sample is there
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
  if (auto it = j.find("p99_s"); it != j.end()) {
    s.p99 = bounded_number(*it, "stats.p99_s", kMaxSeconds, false, where);
  } else if (!samples.empty()) {
    s.p99 = percentile(samples, 0.99); // a file from before p99 was kept: its own samples say
  }
  if (auto it = j.find("spike"); it != j.end()) {
    // p99 / median is at least 1, or 0 where there is no median to divide by.
    s.spike = bounded_number(*it, "stats.spike", kMaxSpike, false, where);
    if (s.spike != 0 && s.spike < 1)
      bad(where, "field 'stats.spike' is " + shown(it->dump()) + ", allowed 0 or [1, 1e+06]");
  } else {
    s.spike = spike_ratio(s.p99, s.median);
  }
  return s;
}

// per_rank: objects; the own-time fields a collective adds are bounded, and raw samples are kept
// for at most kRankSamplesRanks ranks of kRankSamplesCap samples each.
void check_per_rank(const json& per_rank, const std::string& where) {
  if (!per_rank.is_array())
    bad(where, "field 'per_rank' must be an array");
  std::size_t with_samples = 0;
  for (std::size_t i = 0; i < per_rank.size(); ++i) {
    const json& entry = per_rank[i];
    if (!entry.is_object())
      bad(where, "field 'per_rank' must hold objects");
    const std::string name = "per_rank[" + std::to_string(i) + "].";
    for (const char* timing : {"median_s", "p99_s"}) {
      if (auto it = entry.find(timing); it != entry.end())
        bounded_number(*it, name + timing, kMaxSeconds, false, where);
    }
    // Every figure of a rank is a count, an index, a time or a rate: none is negative.
    for (const auto& [key, value] : entry.items()) {
      if (value.is_number()) {
        const bool seconds = metric_is_seconds(key);
        bounded_number(value, name + key, seconds ? kMaxSeconds : kMaxMetric, false, where);
      }
    }
    if (auto it = entry.find("shortest_share"); it != entry.end())
      bounded_number(*it, name + "shortest_share", 1.0, false, where);
    auto samples = entry.find("samples_s");
    if (samples == entry.end())
      continue;
    if (!samples->is_array())
      bad(where, "field '" + name + "samples_s' must be an array");
    if (samples->size() > kRankSamplesCap) {
      bad(where, "field '" + name + "samples_s' holds " + std::to_string(samples->size()) +
                     " samples, allowed at most " + std::to_string(kRankSamplesCap));
    }
    if (++with_samples > kRankSamplesRanks) {
      bad(where, "field 'per_rank' keeps samples_s for more than " +
                     std::to_string(kRankSamplesRanks) + " ranks");
    }
    // A rank's own time may be 0 (a rank with nothing to do in a round); the record's samples,
    // the maximum over ranks, may not.
    for (std::size_t k = 0; k < samples->size(); ++k) {
      bounded_number((*samples)[k], name + "samples_s[" + std::to_string(k) + "]", kMaxSeconds,
                     false, where);
    }
  }
}

StragglerRank bounded_straggler(const json& j, const std::string& where) {
  if (!j.is_object())
    bad(where, "field 'straggler' must be an object");
  const std::string in = where + ": straggler";
  StragglerRank s;
  s.rank = static_cast<int>(bounded_integer(j, "rank", 0, kMaxCount, in));
  s.host = require(j, "host", json::value_t::string, in).get<std::string>();
  s.device = static_cast<int>(bounded_integer(j, "device", 0, kMaxCount, in));
  if (j.contains("nvml_index"))
    s.nvml_index = static_cast<int>(bounded_integer(j, "nvml_index", 0, kMaxCount, in));
  if (j.contains("pci_bus_id"))
    s.pci_bus_id = require(j, "pci_bus_id", json::value_t::string, in).get<std::string>();
  s.shortest_share = bounded_number(require(j, "shortest_share", json::value_t::number_float, in),
                                    "shortest_share", 1.0, false, in);
  s.median_s = bounded_number(require(j, "median_s", json::value_t::number_float, in), "median_s",
                              kMaxSeconds, false, in);
  s.others_median_s = bounded_number(require(j, "others_median_s", json::value_t::number_float, in),
                                     "others_median_s", kMaxSeconds, false, in);
  return s;
}

// A record's names: at most this many bytes (a Google Benchmark name with its arguments fits).
constexpr std::size_t kMaxNameBytes = 256;

// A tab is harmless text (a note may hold one); every other control byte is not.
bool is_control(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

bool has_control(const std::string& s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return is_control(static_cast<unsigned char>(c)); });
}

// Strings from a file reach terminals, tables and pages: their control bytes become visible
// escapes (\xNN), so that a record cannot move the cursor, recolour the terminal or split a
// report's line. Other bytes, and every number, stay as they are.
std::string without_controls(const std::string& s) {
  if (!has_control(s))
    return s;
  std::string out;
  for (char c : s) {
    if (is_control(static_cast<unsigned char>(c))) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

// The same for every string and key of a tree (the loaders bound its depth). Every record of a
// file passes here: a clean string or key is only scanned, never copied.
void escape_controls(json& j) {
  if (j.is_string()) {
    if (has_control(j.get_ref<const std::string&>()))
      j = without_controls(j.get_ref<const std::string&>());
  } else if (j.is_array()) {
    for (json& item : j)
      escape_controls(item);
  } else if (j.is_object()) {
    bool keys_clean = true;
    for (auto& [key, value] : j.items()) {
      escape_controls(value);
      keys_clean = keys_clean && !has_control(key);
    }
    if (!keys_clean) {
      json clean = json::object();
      for (auto& [key, value] : j.items())
        clean[without_controls(key)] = std::move(value);
      j = std::move(clean);
    }
  }
}

std::string bounded_name(const json& j, const char* key, const std::string& where) {
  const std::string name = require(j, key, json::value_t::string, where).get<std::string>();
  if (name.empty() || name.size() > kMaxNameBytes) {
    bad(where, std::string("field '") + key + "' is " + std::to_string(name.size()) +
                   " bytes long; a name is 1 to " + std::to_string(kMaxNameBytes));
  }
  return without_controls(name);
}

// Validates every field of a record and fills all but its free-form parts (params, metrics,
// per_rank, extra), which the callers copy or move.
Record validated_record(const json& j, const std::string& where) {
  if (!j.is_object())
    bad(where, "must be an object");
  Record r;
  r.suite = bounded_name(j, "suite", where);
  r.case_name = bounded_name(j, "case", where);
  require(j, "params", json::value_t::object, where);
  r.gpus = static_cast<int>(bounded_integer(j, "gpus", 1, kMaxCount, where));
  r.nodes = static_cast<int>(bounded_integer(j, "nodes", 1, kMaxCount, where));
  if (r.nodes > r.gpus) {
    bad(where, "field 'nodes' is " + std::to_string(r.nodes) + ", more than its " +
                   std::to_string(r.gpus) + " GPU(s): every node has one at least");
  }
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
  r.stats = bounded_stats(require(j, "stats", json::value_t::object, where), r.samples_s, where);
  for (const auto& [name, value] : require(j, "metrics", json::value_t::object, where).items())
    bounded_number(value, "metrics." + name, kMaxMetric, false, where);
  if (auto it = j.find("per_rank"); it != j.end()) {
    check_per_rank(*it, where);
  }
  if (auto it = j.find("straggler"); it != j.end())
    r.straggler = bounded_straggler(*it, where);
  require_one_of(j, "check", {"pass", "fail", "skipped"}, where);
  r.check = *data_check_from(j["check"].get<std::string>());
  require_one_of(j, "status", {"ok", "noisy", "skipped", "failed"}, where);
  r.status = *record_status_from(j["status"].get<std::string>());
  if (j.contains("reason"))
    r.reason =
        without_controls(require(j, "reason", json::value_t::string, where).get<std::string>());
  if (j.contains("extra"))
    require(j, "extra", json::value_t::object, where);
  if (j.contains("per_rank_run")) {
    r.per_rank_run = without_controls(
        require(j, "per_rank_run", json::value_t::string, where).get<std::string>());
    if (r.per_rank_run.empty() || r.per_rank_run.size() > kMaxNameBytes)
      bad(where, "field 'per_rank_run' must be a run id of 1 to " + std::to_string(kMaxNameBytes) +
                     " bytes");
  }
  return r;
}

} // namespace

Record record_from_json(const json& j, const std::string& where) {
  Record r = validated_record(j, where);
  r.params = j.at("params");
  r.metrics = j.at("metrics");
  if (auto it = j.find("per_rank"); it != j.end())
    r.per_rank = *it;
  if (auto it = j.find("per_rank_derived"); it != j.end())
    restore_rank_rates(r, *it, where);
  if (auto it = j.find("extra"); it != j.end())
    r.extra = *it;
  check_record_figures(r, where);
  for (json* part : {&r.params, &r.metrics, &r.per_rank, &r.extra})
    escape_controls(*part);
  return r;
}

Record record_from_json(json&& j, const std::string& where) {
  Record r = validated_record(j, where);
  r.params = std::move(j.at("params"));
  r.metrics = std::move(j.at("metrics"));
  if (auto it = j.find("per_rank"); it != j.end())
    r.per_rank = std::move(*it);
  if (auto it = j.find("per_rank_derived"); it != j.end())
    restore_rank_rates(r, *it, where);
  if (auto it = j.find("extra"); it != j.end())
    r.extra = std::move(*it);
  check_record_figures(r, where);
  for (json* part : {&r.params, &r.metrics, &r.per_rank, &r.extra})
    escape_controls(*part);
  return r;
}

ResultsFile results_from_top_level(const json& j, const std::string& source,
                                   const RecordsReader& read_records) {
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
  escape_controls(f.run);
  read_records(require(j, "records", json::value_t::array, source), f.records);
  // The writer left out of each entry what the header says of its rank: the records it did that
  // for are given the header, through which rank_field() reads them.
  if (auto ids = std::make_shared<const RankIdentities>(f.run); !ids->empty()) {
    for (Record& r : f.records) {
      if (ids->speaks_for(r))
        r.identities = ids;
    }
  }
  if (j.contains("fits")) {
    f.fits = require(j, "fits", json::value_t::object, source);
    escape_controls(f.fits);
  }
  return f;
}

ResultsFile results_from_json(const json& j, const std::string& source) {
  return results_from_top_level(j, source, [&](const json& records, std::vector<Record>& out) {
    out.reserve(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
      out.push_back(record_from_json(records[i], source + ": records[" + std::to_string(i) + "]"));
  });
}

void write_results_atomic(const ResultsFile& results, const std::string& path,
                          const std::vector<std::string>& inputs) {
  ResultsFileWriter writer(path, results.fits, InvalidUtf8::replace, inputs);
  writer.set_rank_identities(results.run);
  for (const auto& r : results.records)
    writer.add(r);
  writer.commit(results.run);
}

} // namespace cb
