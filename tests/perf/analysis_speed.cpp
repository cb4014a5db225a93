// How long `fit` takes on a large results file: 10,000 records (collectives, compute, links and
// storage cases over message and block sizes, GPU counts 1..64, 20 samples each, per-rank
// figures), curves extracted and every model fitted; and the same with the file serialised and
// parsed around it, as `clusterbench fit` does. Target: under 2 s for the whole.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

#include "analysis/fits_json.hpp"
#include "core/collective_math.hpp"
#include "results/results_io.hpp"

namespace {

constexpr std::size_t kRecords = 10000;
constexpr int kSamples = 20;
const int kGpuCounts[] = {1, 2, 4, 8, 16, 32, 64};

struct Family {
  std::string suite, case_name, metric;
  nlohmann::json params; // without the size
  const char* size_key;
  int sizes; // powers of two from 2^3
};

std::vector<Family> families() {
  std::vector<Family> out;
  for (const char* c : {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall"}) {
    for (bool in_place : {false, true}) {
      for (const char* dtype : {"float", "half", "bf16"}) {
        out.push_back({"collectives",
                       c,
                       "busbw_gbps",
                       {{"dtype", dtype}, {"op", "sum"}, {"in_place", in_place}},
                       "bytes",
                       28});
      }
    }
  }
  for (const char* c : {"copy", "triad", "read"})
    out.push_back({"compute", c, "gbps", {}, "bytes", 28});
  for (const char* dtype : {"bf16", "fp16", "tf32", "fp8"}) {
    out.push_back({"compute", "gemm", "tflops", {{"dtype", dtype}}, "m", 16});
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
  for (const char* op : {"max", "min"}) {
    for (bool in_place : {false, true}) {
      for (const char* dtype : {"float", "half", "bf16"}) {
        out.push_back({"collectives",
                       "all_reduce",
                       "busbw_gbps",
                       {{"dtype", dtype}, {"op", op}, {"in_place", in_place}},
                       "bytes",
                       28});
      }
    }
  }
  return out;
}

cb::Record make_record(const Family& family, double size, int gpus, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(0.0, 0.02);
  cb::Record r;
  r.suite = family.suite;
  r.case_name = family.case_name;
  r.params = family.params;
  if (family.case_name == "gemm") {
    r.params["m"] = r.params["n"] = r.params["k"] = static_cast<std::uint64_t>(size);
  } else {
    r.params[family.size_key] = static_cast<std::uint64_t>(size);
  }
  r.gpus = gpus;
  r.nodes = (gpus + 7) / 8;
  r.ranks_per_node = std::min(gpus, 8);
  r.tier = r.nodes > 1 ? "inter" : "intra";
  // USL-shaped scaling with latency at small sizes.
  const double scaling = gpus / (1 + 0.02 * (gpus - 1) + 0.0004 * gpus * (gpus - 1));
  const double bytes = family.case_name == "gemm" ? 2 * size * size * size : size;
  const double seconds = 5e-6 * std::log2(gpus + 1) + bytes / (10e9 * scaling);
  for (int i = 0; i < kSamples; ++i)
    r.samples_s.push_back(seconds * (1 + std::abs(noise(rng))));
  r.stats = cb::summarize(r.samples_s);
  const double rate = bytes / r.stats.median / 1e9;
  if (family.suite == "collectives") {
    r.metrics = {
        {"time_us", r.stats.median * 1e6},
        {"algbw_gbps", rate},
        {"busbw_gbps", rate * cb::busbw_factor(cb::collective_from_name(family.case_name), gpus)}};
  } else if (family.metric == "tflops") {
    r.metrics = {{"time_us", r.stats.median * 1e6}, {"tflops", rate / 1e3}};
  } else {
    r.metrics = {{"time_us", r.stats.median * 1e6}, {"gbps", rate}};
  }
  for (int rank = 0; rank < gpus; ++rank) {
    r.per_rank.push_back({{"rank", rank},
                          {"host", "node" + std::to_string(rank / 8 + 1)},
                          {"device", rank % 8},
                          {"uuid", "GPU-" + std::to_string(rank)},
                          {"gbps", rate / gpus * (1 + noise(rng))}});
  }
  r.check = "pass";
  return r;
}

const cb::ResultsFile& large_results() {
  static const cb::ResultsFile results = [] {
    cb::ResultsFile f;
    f.run = {{"id", "analysis-speed"}, {"backend", "host"}};
    std::mt19937_64 rng(2024);
    for (const auto& family : families()) {
      for (int s = 0; s < family.sizes; ++s) {
        for (int gpus : kGpuCounts) {
          if (f.records.size() == kRecords)
            return f;
          f.records.push_back(make_record(family, std::ldexp(1.0, 3 + s), gpus, rng));
        }
      }
    }
    return f;
  }();
  return results;
}

void BM_FitTenThousandRecords(benchmark::State& state) {
  const cb::ResultsFile& results = large_results();
  for (auto _ : state) {
    const auto analysis = cb::analyse_scaling(results);
    auto fits = cb::scaling_analysis_to_json(analysis);
    benchmark::DoNotOptimize(fits);
    state.counters["curves"] = static_cast<double>(analysis.curves.size());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(results.records.size()));
}
BENCHMARK(BM_FitTenThousandRecords)->Unit(benchmark::kMillisecond);

// What `clusterbench fit RESULTS.json` does: parse, validate, fit, store, serialise.
void BM_FitTenThousandRecordsWithJson(benchmark::State& state) {
  const std::string text = cb::results_to_json(large_results()).dump(1);
  for (auto _ : state) {
    cb::ResultsFile results = cb::results_from_json(nlohmann::json::parse(text), "bench");
    cb::store_fits(results, cb::analyse_scaling(results));
    std::string out = cb::results_to_json(results).dump(1);
    benchmark::DoNotOptimize(out);
  }
  state.counters["bytes"] = static_cast<double>(text.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRecords));
}
BENCHMARK(BM_FitTenThousandRecordsWithJson)->Unit(benchmark::kMillisecond);

void BM_ExtractCurves(benchmark::State& state) {
  const cb::ResultsFile& results = large_results();
  for (auto _ : state) {
    auto curves = cb::extract_curves(results);
    benchmark::DoNotOptimize(curves);
  }
}
BENCHMARK(BM_ExtractCurves)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
