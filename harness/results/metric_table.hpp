#pragma once
// The one table of metrics (results/metrics.json, embedded at build time): each metric's unit,
// which direction is better, the names tables and plots print for it, whether it is a family's
// headline figure, which suites carry it and where the report looks for it per rank; and the units
// metric names end with. Every command that names, orders or
// labels a metric asks here; plots/clusterplots/metric_table.py reads the same file.
#include <string>
#include <string_view>
#include <vector>

namespace cb {

struct MetricDefinition {
  std::string name;   // the key in a record's metrics, unit included: "busbw_gbps"
  std::string unit;   // as text reports print it: "GB/s", "us"; empty for a fraction or a count
  std::string symbol; // as plots typeset it: "µs" (the unit when the file gives none)
  bool higher_is_better = true;
  std::string short_name; // printed before the unit in tables ("busbw"); empty: the unit alone
  std::string label;      // printed before the unit on plot axes ("bus bandwidth")
  bool headline = false;  // a family's headline figure
  // The suites whose records carry it: a qualify spec check may name it for these only.
  std::vector<std::string> suites;
  // Its place (1 first) in the order the report looks for a per-GPU spread in a record's per_rank
  // entries when the curve's own metric is not there; 0: never looked for.
  int per_rank = 0;
};

struct MetricUnitSuffix {
  std::string suffix; // "gbps", "_us": how a metric's name ends
  std::string unit;   // "GB/s", "us"
};

// Every metric of the table, in its order (the headline metrics' order of preference).
const std::vector<MetricDefinition>& metric_table();
// nullptr for a metric the table does not know.
const MetricDefinition* find_metric(std::string_view name);
// The headline metrics, most telling first: busbw_gbps, gbps, tflops, gflops, latency_us.
std::vector<const MetricDefinition*> headline_metric_definitions();
// The metrics with a per_rank place, in its order: gbps, busbw_gbps, algbw_gbps, tflops, gflops.
std::vector<const MetricDefinition*> per_rank_metric_definitions();
// The unit suffixes, first match wins.
const std::vector<MetricUnitSuffix>& metric_unit_suffixes();
// The first suffix `name` ends with (or is); nullptr when none.
const MetricUnitSuffix* unit_suffix_of(std::string_view name);
// Whether a smaller value of `metric` is better: the table's `better` for a metric it has, else a
// time by its name (a _us, _ms, _ns or _s suffix, or a name starting with latency or time).
bool metric_lower_is_better(std::string_view metric);

// Whether `name` is a time in seconds: the table's unit for a metric it has, else a name ending
// in _s (tokens_per_s, a rate, is in the table).
bool metric_is_seconds(std::string_view name);

// The embedded text of results/metrics.json (generated at configure time).
std::string_view metric_table_json();

} // namespace cb
