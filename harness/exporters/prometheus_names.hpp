#pragma once
// A clusterbench metric (results/metrics.json: the unit is part of the name) as a Prometheus
// metric name ending in its unit. Times go to seconds, the base unit promtool's linter asks for
// (NCCL Inspector's nccl_collective_exec_time_microseconds would fail it); bandwidths keep GB/s
// with NCCL Inspector's suffix, "_gbs" (nccl_bus_bandwidth_gbs, nccl_algorithm_bandwidth_gbs),
// so a dashboard built for one reads the other.
#include <string>
#include <string_view>

namespace cb {

struct PromMetricName {
  std::string suffix; // "bus_bandwidth_gbs", "latency_seconds"
  double scale = 1;   // multiplies the figure into that unit (1e-6 from microseconds)
};

// busbw_gbps -> bus_bandwidth_gbs, algbw_gbps -> algorithm_bandwidth_gbs, gbps -> bandwidth_gbs,
// min_pair_gbps -> min_pair_gbs, latency_us -> latency_seconds (x 1e-6), time_us ->
// time_seconds, tokens_per_s -> tokens_per_second; other characters a metric name cannot hold
// become '_'.
PromMetricName prometheus_metric_name(std::string_view metric);

} // namespace cb
