#include "results/metric_table.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cb {
namespace {

struct Table {
  std::vector<MetricDefinition> metrics;
  std::vector<MetricUnitSuffix> suffixes;
};

// The table is part of the build: a malformed one is a defect of the build, found by the unit
// tests, not input to report to a user.
std::string text_field(const nlohmann::json& entry, const char* key, bool required) {
  const auto it = entry.find(key);
  if (it == entry.end()) {
    if (required)
      throw std::logic_error(std::string("results/metrics.json: an entry has no '") + key + "'");
    return "";
  }
  return it->get<std::string>();
}

Table parse_table() {
  const auto j = nlohmann::json::parse(metric_table_json());
  Table table;
  for (const auto& entry : j.at("metrics")) {
    MetricDefinition m;
    m.name = text_field(entry, "name", true);
    m.unit = text_field(entry, "unit", true);
    m.symbol = text_field(entry, "symbol", false);
    if (m.symbol.empty())
      m.symbol = m.unit;
    const std::string better = text_field(entry, "better", true);
    if (better != "higher" && better != "lower") {
      throw std::logic_error("results/metrics.json: " + m.name + ": better is '" + better +
                             "', allowed higher|lower");
    }
    m.higher_is_better = better == "higher";
    m.short_name = text_field(entry, "short", false);
    m.label = text_field(entry, "label", false);
    m.headline = entry.value("headline", false);
    if (const auto suites = entry.find("suites"); suites != entry.end())
      m.suites = suites->get<std::vector<std::string>>();
    m.per_rank = entry.value("per_rank", 0);
    if (m.per_rank < 0)
      throw std::logic_error("results/metrics.json: " + m.name + ": per_rank is negative");
    table.metrics.push_back(std::move(m));
  }
  for (const auto& entry : j.at("unit_suffixes")) {
    table.suffixes.push_back({text_field(entry, "suffix", true), text_field(entry, "unit", true)});
  }
  return table;
}

const Table& table() {
  static const Table parsed = parse_table();
  return parsed;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

} // namespace

const std::vector<MetricDefinition>& metric_table() {
  return table().metrics;
}

const MetricDefinition* find_metric(std::string_view name) {
  for (const auto& m : table().metrics) {
    if (m.name == name)
      return &m;
  }
  return nullptr;
}

std::vector<const MetricDefinition*> headline_metric_definitions() {
  std::vector<const MetricDefinition*> out;
  for (const auto& m : table().metrics) {
    if (m.headline)
      out.push_back(&m);
  }
  return out;
}

std::vector<const MetricDefinition*> per_rank_metric_definitions() {
  std::vector<const MetricDefinition*> out;
  for (const auto& m : table().metrics) {
    if (m.per_rank > 0)
      out.push_back(&m);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const MetricDefinition* a, const MetricDefinition* b) {
                     return a->per_rank < b->per_rank;
                   });
  return out;
}

const std::vector<MetricUnitSuffix>& metric_unit_suffixes() {
  return table().suffixes;
}

const MetricUnitSuffix* unit_suffix_of(std::string_view name) {
  for (const auto& s : table().suffixes) {
    if (ends_with(name, s.suffix))
      return &s;
  }
  return nullptr;
}

bool metric_is_seconds(std::string_view name) {
  if (const MetricDefinition* known = find_metric(name))
    return known->unit == "s";
  const MetricUnitSuffix* suffix = unit_suffix_of(name);
  return suffix && suffix->unit == "s";
}

bool metric_lower_is_better(std::string_view metric) {
  if (const MetricDefinition* known = find_metric(metric))
    return !known->higher_is_better;
  if (ends_with(metric, "_us") || ends_with(metric, "_ms") || ends_with(metric, "_ns") ||
      ends_with(metric, "_s"))
    return true;
  return metric.rfind("latency", 0) == 0 || metric.rfind("time", 0) == 0;
}

} // namespace cb
