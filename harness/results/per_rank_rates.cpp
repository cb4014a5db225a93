#include "results/per_rank_rates.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "results/metric_table.hpp"
#include "results/record_bounds.hpp"

namespace cb {
namespace {

using nlohmann::json;

// Per-rank figures are written to 6 significant digits (runtime/case.cpp), each rate from the
// median_s as written: computed again here it is the same figure, but for the last bit of a
// product taken in another order. Only such figures are left out, so that a file read and written
// again holds the same figures; one a few units off in its 6th digit (a file whose rates came
// from the unrounded time) is kept as written.
constexpr int kRankDigits = 6;
constexpr double kRateSlack = 1e-9;
// A name list longer than any metric table is not one.
constexpr std::size_t kMaxDerived = 64;

// A rate of the rank's own time: better when higher (metric table; a time by its name is not),
// and none of an entry's identities, times, shares or samples.
bool rate_candidate(const std::string& key) {
  static const std::set<std::string> kept = {
      "rank", "host", "node", "device", "uuid", "shortest_share", "p99_s", "median_s", "samples_s"};
  return kept.count(key) == 0 && !metric_is_seconds(key) && !metric_lower_is_better(key);
}

double positive(const json& value) {
  return value.is_number() && value.get<double>() > 0 ? value.get<double>() : 0.0;
}

double derived_rate(double metric, double median, double rank_median) {
  return round_significant(metric * median / rank_median, kRankDigits);
}

[[noreturn]] void refuse(const std::string& where, const std::string& problem) {
  throw InputError(where + ": " + problem);
}

} // namespace

std::vector<std::string> derivable_rank_rates(const Record& r) {
  std::vector<std::string> derived;
  const double median = r.stats.median;
  // One entry is the record itself: every figure would pass, a utilization as well as a rate,
  // for a saving of one entry.
  if (!r.per_rank.is_array() || r.per_rank.size() < 2 || !(median > 0) || !r.metrics.is_object())
    return derived;
  const json& first = r.per_rank.front();
  if (!first.is_object())
    return derived;
  for (const auto& [key, value] : first.items()) {
    if (!value.is_number() || !rate_candidate(key))
      continue;
    const auto metric = r.metrics.find(key);
    if (metric == r.metrics.end() || positive(*metric) == 0)
      continue;
    bool every = true;
    for (const json& entry : r.per_rank) {
      const auto own = entry.is_object() ? entry.find(key) : entry.end();
      const double rank_median = entry.is_object() ? positive(entry.value("median_s", json())) : 0;
      if (rank_median == 0 || own == entry.end() || !own->is_number()) {
        every = false;
        break;
      }
      const double written = own->get<double>();
      const double again = derived_rate(metric->get<double>(), median, rank_median);
      if (!(std::abs(again - written) <= kRateSlack * std::abs(written))) {
        every = false;
        break;
      }
    }
    if (every)
      derived.push_back(key);
  }
  return derived; // json objects iterate in key order: already sorted
}

json without_rates(const json& entry, const std::vector<std::string>& derived) {
  if (derived.empty() || !entry.is_object())
    return entry;
  json out = json::object();
  for (const auto& [key, value] : entry.items()) {
    if (!std::binary_search(derived.begin(), derived.end(), key))
      out[key] = value;
  }
  return out;
}

void restore_rank_rates(Record& r, const json& derived, const std::string& where) {
  const std::string field = "field 'per_rank_derived'";
  if (!derived.is_array() || derived.empty() || derived.size() > kMaxDerived) {
    refuse(where,
           field + " must be an array of 1 to " + std::to_string(kMaxDerived) + " metric names");
  }
  std::set<std::string> seen;
  std::vector<std::pair<std::string, double>> rates;
  for (const json& name : derived) {
    if (!name.is_string())
      refuse(where, field + " must hold metric names");
    const std::string key = name.get<std::string>();
    if (!seen.insert(key).second)
      refuse(where, field + " names '" + shown(key) + "' twice");
    if (!rate_candidate(key))
      refuse(where, field + " names '" + shown(key) + "', which is no rate of a rank's time");
    const auto metric = r.metrics.find(key);
    if (metric == r.metrics.end() || !metric->is_number())
      refuse(where, field + " names '" + shown(key) + "', which is not among the record's metrics");
    if (!(metric->get<double>() > 0))
      refuse(where, field + " names '" + shown(key) + "', whose metric is not positive");
    rates.emplace_back(key, metric->get<double>());
  }
  if (!(r.stats.median > 0))
    refuse(where, field + " needs a positive stats.median_s to derive the ranks' rates from");
  if (!r.per_rank.is_array() || r.per_rank.empty())
    refuse(where, field + " given without per_rank entries");
  for (std::size_t i = 0; i < r.per_rank.size(); ++i) {
    json& entry = r.per_rank[i];
    const std::string name = "per_rank[" + std::to_string(i) + "]";
    const double rank_median = entry.is_object() ? positive(entry.value("median_s", json())) : 0;
    if (rank_median == 0)
      refuse(where, name + " has no positive median_s, which " + field + " derives its rates from");
    for (const auto& [key, metric] : rates) {
      if (entry.contains(key))
        refuse(where, name + " has '" + shown(key) + "', which " + field + " says is derived");
      const double value = derived_rate(metric, r.stats.median, rank_median);
      if (!std::isfinite(value) || value > kMaxMetric) {
        refuse(where, name + "." + shown(key) + ", which " + field + " derives from median_s " +
                          std::to_string(rank_median) + ", is out of bounds");
      }
      entry[key] = value;
    }
  }
}

} // namespace cb
