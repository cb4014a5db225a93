#include "analysis/curves.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "analysis/record_values.hpp"
#include "results/metric_table.hpp"

namespace cb {
namespace {

struct Candidate {
  int gpus;
  int nodes;
  double value;
  std::size_t samples;
  std::string tier;
};

struct Group {
  CurveKey key;
  std::vector<Candidate> points;
};

std::string tier_info_of(const std::vector<Candidate>& points) {
  std::vector<std::string> tiers;
  for (const auto& p : points) {
    if (std::find(tiers.begin(), tiers.end(), p.tier) == tiers.end())
      tiers.push_back(p.tier);
  }
  std::string info;
  for (const auto& t : tiers)
    info += (info.empty() ? "" : "+") + t;
  return info;
}

} // namespace

std::string headline_metric(const Record& record) {
  // The table lists the throughputs before latency_us, so a throughput wins where both are there.
  for (const MetricDefinition* m : headline_metric_definitions()) {
    if (record.metrics.contains(m->name))
      return m->name;
  }
  return "";
}

bool is_throughput_metric(const std::string& metric) {
  const MetricDefinition* m = find_metric(metric);
  return m && m->headline && m->higher_is_better;
}

std::vector<Curve> extract_curves(const ResultsFile& results) {
  std::vector<Group> groups;
  std::map<std::string, std::size_t> index; // serialised key -> position in groups
  for (const Record& record : results.records) {
    if (!is_usable(record))
      continue;
    const std::string metric = headline_metric(record);
    if (metric.empty())
      continue;
    const auto& entry = record.metrics[metric];
    if (!entry.is_number())
      continue;
    const double value = entry.get<double>();
    if (!std::isfinite(value) || value < 0)
      continue;
    nlohmann::json params = identity_params(record.params);
    // nlohmann's default object type is ordered, so dump() is a canonical form of the params.
    const std::string id =
        record.suite + '\n' + record.case_name + '\n' + metric + '\n' + params.dump();
    auto [it, inserted] = index.emplace(id, groups.size());
    if (inserted)
      groups.push_back({{record.suite, record.case_name, metric, std::move(params), ""}, {}});
    auto& points = groups[it->second].points;
    Candidate candidate{record.gpus, record.nodes, value, record.samples_s.size(), record.tier};
    auto same = std::find_if(points.begin(), points.end(),
                             [&](const Candidate& c) { return c.gpus == record.gpus; });
    if (same == points.end()) {
      points.push_back(candidate);
    } else if (candidate.samples > same->samples) {
      *same = candidate;
    }
  }
  std::vector<Curve> curves;
  curves.reserve(groups.size());
  for (auto& group : groups) {
    std::stable_sort(group.points.begin(), group.points.end(),
                     [](const Candidate& a, const Candidate& b) { return a.gpus < b.gpus; });
    Curve curve;
    curve.key = std::move(group.key);
    curve.key.tier_info = tier_info_of(group.points);
    for (const auto& p : group.points) {
      curve.gpus.push_back(p.gpus);
      curve.value.push_back(p.value);
      curve.nodes.push_back(p.nodes);
    }
    curves.push_back(std::move(curve));
  }
  return curves;
}

} // namespace cb
