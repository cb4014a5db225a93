#include "exporters/prometheus_names.hpp"

namespace cb {
namespace {

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

std::string sanitized(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += keep ? c : '_';
  }
  return out.empty() ? std::string("value") : out;
}

} // namespace

PromMetricName prometheus_metric_name(std::string_view metric) {
  if (metric == "busbw_gbps")
    return {"bus_bandwidth_gbs", 1};
  if (metric == "algbw_gbps")
    return {"algorithm_bandwidth_gbs", 1};
  if (metric == "gbps")
    return {"bandwidth_gbs", 1};
  if (metric == "tokens_per_s")
    return {"tokens_per_second", 1};
  struct TimeUnit {
    std::string_view suffix;
    double scale;
  };
  static constexpr TimeUnit kTimes[] = {{"_us", 1e-6}, {"_ms", 1e-3}, {"_ns", 1e-9}, {"_s", 1}};
  for (const auto& unit : kTimes) {
    if (ends_with(metric, unit.suffix) && metric.size() > unit.suffix.size()) {
      const auto stem = metric.substr(0, metric.size() - unit.suffix.size());
      return {sanitized(stem) + "_seconds", unit.scale};
    }
  }
  if (ends_with(metric, "_gbps"))
    return {sanitized(metric.substr(0, metric.size() - 5)) + "_gbs", 1};
  return {sanitized(metric), 1};
}

} // namespace cb
