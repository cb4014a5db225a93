#pragma once
// How evenly the GPUs of one measurement performed: min, median and max of the per-rank figures
// and their coefficient of variation. One slow GPU hides in an aggregate but not here.
#include <optional>
#include <string>

#include "results/record.hpp"

namespace cb::report {

struct PerRankSpread {
  std::string figure; // the per_rank key the numbers come from, e.g. "gbps"
  int count = 0;      // ranks that reported it
  double min = 0, median = 0, max = 0;
  double cv = 0;          // stddev / mean
  // The per_rank entry with the worst figure (rank, host, device, ...): the lowest rate, or the
  // highest time or latency.
  nlohmann::json slowest;
  bool lower_is_better = false; // the figure is a time or latency
  // The slowest rank's speed as a share of the median's: min / median for a rate, median / max
  // for a time (1 when every rank is even; 0 without a median).
  double slowest_share() const;
  // A collective's figures (per_rank_figures_include_waiting): `slowest` is then a rank that
  // waited for another, not a slow GPU, and is never named as one.
  bool includes_waiting = false;
};

// "rank 21 (h200-03 device 5)": the rank, host and device fields an entry has.
std::string describe_rank(const nlohmann::json& entry);

// The record's per-rank figures for `metric` (the headline metric, e.g. busbw_gbps), else the
// first the per_rank entries carry as numbers of the table's per_rank metrics, in their order
// (results/metrics.json: gbps, busbw_gbps, algbw_gbps, tflops, gflops).
// nullopt when no entry has any of them.
std::optional<PerRankSpread> per_rank_spread(const Record& record, const std::string& metric);

} // namespace cb::report
