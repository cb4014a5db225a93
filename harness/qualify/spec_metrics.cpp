#include "qualify/spec_metrics.hpp"

#include <algorithm>

namespace cb {
namespace {

struct SuiteMetrics {
  std::string suite;
  std::vector<std::string> metrics;
};

// The one list of what records carry in `metrics`. It follows the code that writes them: when a
// case or an importer gains a metric, add it here (the bundled specs are tested to load).
const std::vector<SuiteMetrics>& table() {
  static const std::vector<SuiteMetrics> suites = {
      // bench/collectives/collective_case.cpp (time_us, algbw_gbps, busbw_gbps; node_link_gbps
      // across nodes); harness/imports nccl-tests (the same three) and OSU (min/max_time_us too).
      {"collectives",
       {"time_us", "algbw_gbps", "busbw_gbps", "node_link_gbps", "min_time_us", "max_time_us"}},
      // bench/compute/compute_case.cpp: host STREAM kernels gbps, host fma_peak and gemm gflops;
      // on a GPU backend (kernels/cuda) gbps and tflops, with fraction_of_peak of the data sheet.
      {"compute", {"time_us", "gbps", "gflops", "tflops", "fraction_of_peak"}},
      // bench/links/links_case.cpp matrices (pair_bw gbps, pair_latency latency_us, each with its
      // min_pair_/max_pair_ figures), ring_bw gbps; bench/cuda host_device_copy (per_gpu_gbps),
      // device_local_copy (read_write_gbps), p2p_matrix (min/max_gbps, pairs, fraction_of_peak);
      // the OSU importer's point-to-point latency_us and gbps.
      {"links",
       {"time_us", "gbps", "latency_us", "min_pair_gbps", "max_pair_gbps", "min_pair_latency_us",
        "max_pair_latency_us", "per_gpu_gbps", "read_write_gbps", "min_gbps", "max_gbps", "pairs",
        "fraction_of_peak"}},
      // bench/storage/storage_case.cpp (gbps, first_done_gbps, last_done_gbps) and
      // bench/cuda/storage_to_gpu_case.cpp (gbps); the fio importer adds iops and latency_us.
      {"storage", {"time_us", "gbps", "first_done_gbps", "last_done_gbps", "iops", "latency_us"}},
  };
  return suites;
}

} // namespace

const std::vector<std::string>& spec_suites() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& s : table())
      out.push_back(s.suite);
    return out;
  }();
  return names;
}

const std::vector<std::string>& spec_suite_metrics(std::string_view suite) {
  static const std::vector<std::string> none;
  const auto& suites = table();
  auto it = std::find_if(suites.begin(), suites.end(),
                         [&](const SuiteMetrics& s) { return s.suite == suite; });
  return it == suites.end() ? none : it->metrics;
}

std::string join_allowed(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names)
    text += (text.empty() ? "" : "|") + name;
  return text;
}

} // namespace cb
