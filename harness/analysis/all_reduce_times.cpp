#include "analysis/all_reduce_times.hpp"

#include <algorithm>
#include <map>

#include "analysis/record_values.hpp"
#include "core/stats.hpp"
#include "results/suite_names.hpp"

namespace cb {

std::optional<MeasuredAllReduce> MeasuredAllReduce::from(const ResultsFile& results, int gpus,
                                                         int nodes, const std::string& dtype) {
  std::vector<const Record*> at;
  for (const Record& r : results.records) {
    if (r.suite == suite_names::kCollectives && r.case_name == "all_reduce" && is_usable(r) &&
        r.gpus == gpus && r.nodes == nodes && message_bytes(r) && seconds_per_operation(r))
      at.push_back(&r);
  }
  // Narrow to the records most like the step's all-reduce, where there are such records.
  auto keep_if_any = [&](auto&& wanted) {
    if (std::any_of(at.begin(), at.end(), wanted))
      std::erase_if(at, [&](const Record* r) { return !wanted(r); });
  };
  keep_if_any([](const Record* r) { return in_place_flag(r->params) == false; });
  keep_if_any([&](const Record* r) { return r->params.value("dtype", std::string()) == dtype; });
  keep_if_any([](const Record* r) { return r->params.value("op", std::string()) == "sum"; });
  if (at.empty())
    return std::nullopt;
  std::map<double, std::vector<double>> by_size;
  for (const Record* r : at)
    by_size[*message_bytes(*r)].push_back(*seconds_per_operation(*r));
  std::vector<std::pair<double, double>> points;
  for (const auto& [bytes, seconds] : by_size)
    points.emplace_back(bytes, median(seconds));
  return MeasuredAllReduce(std::move(points));
}

MeasuredAllReduce::MeasuredAllReduce(std::vector<std::pair<double, double>> points)
    : points_(std::move(points)) {
  std::sort(points_.begin(), points_.end());
}

double MeasuredAllReduce::time(double bytes) const {
  if (points_.empty())
    return 0;
  if (bytes <= points_.front().first)
    return points_.front().second;
  if (points_.size() == 1) // one size: its per-byte cost
    return points_.front().second * bytes / points_.front().first;
  const auto upper = std::lower_bound(
      points_.begin(), points_.end(), bytes,
      [](const std::pair<double, double>& p, double b) { return p.first < b; });
  // Beyond the largest: the last segment, extended.
  const auto hi = upper == points_.end() ? points_.end() - 1 : upper;
  const auto lo = hi - 1;
  const double slope = std::max(0.0, (hi->second - lo->second) / (hi->first - lo->first));
  return std::max(lo->second, lo->second + slope * (bytes - lo->first));
}

} // namespace cb
