#pragma once
// Curves: one measured figure against GPU count, for one case at fixed parameters. They are what
// the scaling models are fitted to and what the plots and reports draw.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/record.hpp"

namespace cb {

struct CurveKey {
  std::string suite, case_name, metric;
  nlohmann::json params; // identity_params of the records
  // The tiers the curve spans in order of GPU count: "intra", "inter" or "intra+inter".
  std::string tier_info;
};

struct Curve {
  CurveKey key;
  std::vector<int> gpus;     // ascending, one entry per GPU count
  std::vector<double> value; // the headline metric at each GPU count
  std::vector<int> nodes;    // nodes taking part at each GPU count
};

// The headline metric of a record: the first of busbw_gbps, gbps, tflops, gflops present, else
// latency_us; empty when the record has none of them.
std::string headline_metric(const Record& record);
// Throughputs (higher is better) scale with GPU count; latency does not and gets no efficiency.
bool is_throughput_metric(const std::string& metric);

// Groups records with status ok or noisy by (suite, case, params, headline metric), in the order
// the groups first appear; params compare without the derived per-rank "count" (identity_params).
// Where several records share a GPU count, the one with more samples wins (the first on a tie).
std::vector<Curve> extract_curves(const ResultsFile& results);

} // namespace cb
