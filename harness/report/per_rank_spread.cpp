#include "report/per_rank_spread.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/stats.hpp"
#include "results/metric_table.hpp"
#include "results/rank_identity.hpp"

namespace cb::report {
namespace {

struct Figures {
  std::vector<double> values;
  const nlohmann::json* slowest = nullptr;
};

// `lower_is_better`: the slowest rank is the one with the highest figure (a time or latency).
Figures figures_named(const nlohmann::json& per_rank, const std::string& key,
                      bool lower_is_better) {
  Figures figures;
  double worst = 0;
  if (!per_rank.is_array())
    return figures;
  for (const auto& entry : per_rank) {
    if (!entry.is_object())
      continue;
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_number())
      continue;
    const double v = it->get<double>();
    if (!std::isfinite(v))
      continue;
    // A running extreme: the slowest rank of 8,192 in one pass, not a scan per rank.
    if (figures.values.empty() || (lower_is_better ? v > worst : v < worst)) {
      figures.slowest = &entry;
      worst = v;
    }
    figures.values.push_back(v);
  }
  return figures;
}

std::string field_text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

} // namespace

std::optional<PerRankSpread> per_rank_spread(const Record& record, const std::string& metric) {
  std::vector<std::string> keys;
  if (!metric.empty())
    keys.push_back(metric);
  for (const MetricDefinition* m : per_rank_metric_definitions()) {
    if (std::find(keys.begin(), keys.end(), m->name) == keys.end())
      keys.push_back(m->name);
  }
  for (const auto& key : keys) {
    // A time or latency: its slowest rank has the highest figure.
    const bool lower = metric_lower_is_better(key);
    const Figures figures = figures_named(record.per_rank, key, lower);
    const auto& values = figures.values;
    if (values.empty())
      continue;
    PerRankSpread spread;
    spread.figure = key;
    spread.lower_is_better = lower;
    spread.count = static_cast<int>(values.size());
    spread.min = *std::min_element(values.begin(), values.end());
    spread.max = *std::max_element(values.begin(), values.end());
    spread.median = median(values);
    spread.cv = coefficient_of_variation(values);
    // Whole: where the run's header says the rank's host and device, the entry leaves them out.
    spread.slowest = whole_entry(record, *figures.slowest);
    spread.includes_waiting = per_rank_figures_include_waiting(record);
    return spread;
  }
  return std::nullopt;
}

double PerRankSpread::slowest_share() const {
  if (!(median > 0))
    return 0;
  if (lower_is_better)
    return max > 0 ? median / max : 0;
  return min / median;
}

std::string describe_rank(const nlohmann::json& entry) {
  if (!entry.is_object())
    return "a rank";
  std::string where;
  if (const auto host = entry.find("host"); host != entry.end() && !host->is_null())
    where = field_text(*host);
  if (const auto device = entry.find("device"); device != entry.end() && !device->is_null())
    where += (where.empty() ? "" : " ") + std::string("device ") + field_text(*device);
  const auto rank = entry.find("rank");
  std::string text =
      rank != entry.end() && !rank->is_null() ? "rank " + field_text(*rank) : "a rank";
  return where.empty() ? text : text + " (" + where + ")";
}

} // namespace cb::report
