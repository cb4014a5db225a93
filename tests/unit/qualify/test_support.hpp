#pragma once
// Small builders shared by the qualify tests.
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "results/record.hpp"

namespace cb::test {

// An n x n link matrix: `value` off the diagonal, null on it.
inline nlohmann::json uniform_matrix(int n, double value) {
  nlohmann::json matrix = nlohmann::json::array();
  for (int a = 0; a < n; ++a) {
    nlohmann::json row = nlohmann::json::array();
    for (int b = 0; b < n; ++b)
      row.push_back(a == b ? nlohmann::json(nullptr) : nlohmann::json(value));
    matrix.push_back(row);
  }
  return matrix;
}

inline std::string source_path(const std::string& relative) {
  return std::string(CB_SOURCE_DIR) + "/" + relative;
}

// A record with `per_gpu_gbps` as per-rank figures on `hosts[i % hosts.size()]`, aggregate metric
// from the slowest rank, five samples.
inline Record gpu_record(const std::string& suite, const std::string& name,
                         const std::vector<double>& per_gpu_gbps,
                         const std::vector<std::string>& hosts = {"n1"}) {
  Record r;
  r.suite = suite;
  r.case_name = name;
  r.params = {{"bytes", 1 << 30}};
  r.gpus = static_cast<int>(per_gpu_gbps.size());
  r.ranks_per_node = r.gpus;
  r.samples_s = {1.0, 1.0, 1.0, 1.0, 1.0};
  r.stats = summarize(r.samples_s);
  double slowest = per_gpu_gbps.empty() ? 0 : per_gpu_gbps[0];
  for (std::size_t i = 0; i < per_gpu_gbps.size(); ++i) {
    slowest = std::min(slowest, per_gpu_gbps[i]);
    const std::string& host = hosts[i % hosts.size()];
    r.per_rank.push_back({{"rank", i},
                          {"host", host},
                          {"device", static_cast<int>(i / hosts.size())},
                          {"uuid", "GPU-" + std::to_string(i)},
                          {"gbps", per_gpu_gbps[i]}});
  }
  r.metrics = {{"gbps", slowest * static_cast<double>(per_gpu_gbps.size())}, {"time_us", 1e6}};
  r.check = DataCheck::pass;
  return r;
}

} // namespace cb::test
