#pragma once
// Results built the way the harness writes them, for the report tests.
#include <cmath>
#include <string>

#include "../analysis/analysis_test_data.hpp"
#include "core/stats.hpp"
#include "report/headline.hpp"
#include "results/record.hpp"

namespace cb::report::test {

// A record as the analysis tests build it, with a per-rank entry for each GPU (the report's
// per-GPU spread reads them).
inline Record make_record(const std::string& suite, const std::string& case_name,
                          nlohmann::json params, int gpus, nlohmann::json metrics,
                          int gpus_per_node = 8, double seconds = 1e-3) {
  Record r = cb::test::make_record(suite, case_name, std::move(params), gpus, std::move(metrics),
                                   seconds, 5, gpus_per_node);
  for (int rank = 0; rank < gpus; ++rank)
    r.per_rank.push_back({{"rank", rank}});
  return r;
}

// Aggregate throughput X(N) = gamma N / (1 + alpha (N-1) + beta N (N-1)).
inline double usl(double alpha, double beta, double gamma, int n) {
  return gamma * n / (1 + alpha * (n - 1) + beta * n * (n - 1));
}

// A throughput curve of `suite/case_name` shaped by the USL at the given GPU counts.
inline void add_usl_curve(ResultsFile& results, const std::string& suite,
                          const std::string& case_name, nlohmann::json params,
                          const std::vector<int>& gpus, double alpha, double beta,
                          double gamma = 10, const std::string& metric = "gbps") {
  for (int n : gpus) {
    results.records.push_back(
        make_record(suite, case_name, params, n, {{metric, usl(alpha, beta, gamma, n)}}));
  }
}

// all_reduce on p GPUs under the ring model: T = 2(p-1) alpha + 2(p-1)/p n beta.
inline Record all_reduce_record(double bytes, int gpus, double alpha, double beta,
                                int gpus_per_node = 8) {
  const double seconds = 2.0 * (gpus - 1) * alpha + 2.0 * (gpus - 1) / gpus * bytes * beta;
  const double algbw = bytes / seconds / 1e9;
  return make_record("collectives", "all_reduce",
                     {{"bytes", static_cast<std::uint64_t>(bytes)},
                      {"dtype", "float"},
                      {"op", "sum"},
                      {"in_place", false}},
                     gpus,
                     {{"time_us", seconds * 1e6},
                      {"algbw_gbps", algbw},
                      {"busbw_gbps", algbw * 2.0 * (gpus - 1) / gpus}},
                     gpus_per_node, seconds);
}

inline std::string fixture(const std::string& relative) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/" + relative;
}

// Report options with the default training step, as `clusterbench report` uses them.
inline ReportOptions default_options() {
  ReportOptions o;
  o.step = default_training_step();
  return o;
}

} // namespace cb::report::test
