#include "synthetic_results.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/collective_math.hpp"
#include "core/stats.hpp"

namespace cb::perf {
namespace {

constexpr int kSamples = 20;
constexpr int kGpusPerNode = 8;
const int kGpuCounts[] = {1, 2, 4, 8, 16, 32, 64};

struct Family {
  std::string suite, case_name, metric;
  nlohmann::json params; // without the size
  const char* size_key;
  int sizes; // powers of two from 2^3
};

void add_collectives(std::vector<Family>& out, const std::vector<const char*>& cases,
                     const char* op) {
  for (const char* c : cases) {
    for (bool in_place : {false, true}) {
      for (const char* dtype : {"float", "half", "bf16"}) {
        out.push_back({"collectives",
                       c,
                       "busbw_gbps",
                       {{"dtype", dtype}, {"op", op}, {"in_place", in_place}},
                       "bytes",
                       28});
      }
    }
  }
}

std::vector<Family> families() {
  std::vector<Family> out;
  add_collectives(out, {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall"},
                  "sum");
  for (const char* c : {"copy", "triad", "read"}) {
    out.push_back({"compute", c, "gbps", {{"dtype", "double"}}, "bytes", 28});
  }
  for (const char* dtype : {"bf16", "fp16", "tf32", "fp8"}) {
    out.push_back({"compute", "gemm", "tflops", {{"dtype", dtype}}, "m", 11});
  }
  for (const char* c : {"seq_read", "rand_read"}) {
    for (int depth : {1, 4, 16, 64}) {
      out.push_back(
          {"storage", c, "gbps", {{"queue_depth", depth}, {"direct", true}}, "block_bytes", 13});
    }
  }
  for (const char* c : {"p2p", "h2d", "d2h"}) {
    for (const char* direction : {"uni", "bi"}) {
      out.push_back({"links", c, "gbps", {{"direction", direction}}, "bytes", 28});
    }
  }
  // Enough more curves to reach the record count.
  add_collectives(out, {"all_reduce"}, "max");
  add_collectives(out, {"all_reduce"}, "min");
  return out;
}

Record make_record(const Family& family, double size, int gpus, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(0.0, 0.02);
  Record r;
  r.suite = family.suite;
  r.case_name = family.case_name;
  r.params = family.params;
  if (family.case_name == "gemm") {
    r.params["m"] = r.params["n"] = r.params["k"] = static_cast<std::uint64_t>(size);
  } else {
    r.params[family.size_key] = static_cast<std::uint64_t>(size);
  }
  r.gpus = gpus;
  r.nodes = (gpus + kGpusPerNode - 1) / kGpusPerNode;
  r.ranks_per_node = std::min(gpus, kGpusPerNode);
  r.tier = r.nodes > 1 ? "inter" : "intra";
  const double scaling = gpus / (1 + 0.02 * (gpus - 1) + 0.0004 * gpus * (gpus - 1));
  const double bytes = family.case_name == "gemm" ? 2 * size * size * size : size;
  const double link = r.nodes > 1 ? 2e9 : 10e9;
  const double seconds = 5e-6 * std::log2(gpus + 1) + bytes / (link * scaling);
  for (int i = 0; i < kSamples; ++i)
    r.samples_s.push_back(seconds * (1 + std::abs(noise(rng))));
  r.stats = summarize(r.samples_s);
  const double rate = bytes / r.stats.median / 1e9;
  if (family.suite == "collectives") {
    r.metrics = {{"time_us", r.stats.median * 1e6},
                 {"algbw_gbps", rate},
                 {"busbw_gbps", rate * busbw_factor(collective_from_name(family.case_name), gpus)}};
  } else if (family.metric == "tflops") {
    r.metrics = {{"time_us", r.stats.median * 1e6}, {"tflops", rate / 1e3 * gpus}};
  } else {
    r.metrics = {{"time_us", r.stats.median * 1e6}, {"gbps", rate * gpus}};
  }
  for (int rank = 0; rank < gpus; ++rank) {
    r.per_rank.push_back({{"rank", rank},
                          {"host", "node" + std::to_string(rank / kGpusPerNode + 1)},
                          {"device", rank % kGpusPerNode},
                          {"uuid", "GPU-" + std::to_string(rank)},
                          {"gbps", rate * (1 + noise(rng))}});
  }
  r.check = DataCheck::pass;
  return r;
}

} // namespace

ResultsFile synthetic_results(const std::string& run_id, std::uint64_t seed) {
  ResultsFile f;
  f.run = {{"id", run_id}, {"backend", "host"}};
  std::mt19937_64 rng(seed);
  for (const auto& family : families()) {
    for (int s = 0; s < family.sizes; ++s) {
      for (int gpus : kGpuCounts) {
        if (f.records.size() == kSyntheticRecords)
          return f;
        f.records.push_back(make_record(family, std::ldexp(1.0, 3 + s), gpus, rng));
      }
    }
  }
  return f;
}

} // namespace cb::perf
