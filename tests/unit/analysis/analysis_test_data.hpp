#pragma once
// Records built the way the harness writes them, for the analysis tests.
#include <string>

#include "core/collective_math.hpp"
#include "core/stats.hpp"
#include "results/record.hpp"

namespace cb::test {

inline Record make_record(const std::string& suite, const std::string& case_name,
                          nlohmann::json params, int gpus, nlohmann::json metrics,
                          double seconds = 1e-3, int samples = 5, int gpus_per_node = 8) {
  Record r;
  r.suite = suite;
  r.case_name = case_name;
  r.params = params.is_null() ? nlohmann::json::object() : std::move(params);
  r.gpus = gpus;
  r.nodes = (gpus + gpus_per_node - 1) / gpus_per_node;
  r.ranks_per_node = gpus < gpus_per_node ? gpus : gpus_per_node;
  r.tier = r.nodes > 1 ? "inter" : "intra";
  r.samples_s.assign(samples, seconds);
  r.stats = summarize(r.samples_s);
  r.metrics = std::move(metrics);
  r.check = DataCheck::pass;
  return r;
}

// An all_reduce record as nccl-tests accounts it: algbw = bytes / t, busbw = algbw 2(p-1)/p.
inline Record all_reduce_record(double bytes, int gpus, double seconds, bool in_place = false,
                                int gpus_per_node = 8) {
  const double algbw = gbps(bytes, seconds);
  const double busbw = algbw * busbw_factor(Collective::all_reduce, gpus);
  return make_record("collectives", "all_reduce",
                     {{"bytes", static_cast<std::uint64_t>(bytes)},
                      {"dtype", "float"},
                      {"op", "sum"},
                      {"in_place", in_place}},
                     gpus,
                     {{"time_us", seconds * 1e6}, {"algbw_gbps", algbw}, {"busbw_gbps", busbw}},
                     seconds, 5, gpus_per_node);
}

// Ring all-reduce time 2(p-1) alpha + 2(p-1)/p n beta.
inline double ring_time(double alpha, double beta, double bytes, int p) {
  return 2.0 * (p - 1) * alpha + 2.0 * (p - 1) / p * bytes * beta;
}

} // namespace cb::test
