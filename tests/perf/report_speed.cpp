// How long `report` takes on a large results file: 10,000 records (collectives, compute, links and
// storage cases over message and block sizes, GPU counts 1..64 on 8-GPU nodes, 20 samples each,
// per-rank figures), with every part the training-step prediction needs. Timed: the report
// fitting what it shows itself (no fits section); `fit` then `report` (every curve fitted and
// stored, the report reading the stored fits); and that with the file parsed first, as a user
// runs it. Markdown only, no plots. Target: under 2 s for the whole.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

#include "analysis/fits_json.hpp"
#include "core/collective_math.hpp"
#include "report/markdown_renderer.hpp"
#include "report/report_builder.hpp"
#include "results/results_io.hpp"

namespace {

constexpr std::size_t kRecords = 10000;
constexpr int kSamples = 20;
constexpr int kGpusPerNode = 8;
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
  r.nodes = (gpus + kGpusPerNode - 1) / kGpusPerNode;
  r.ranks_per_node = std::min(gpus, kGpusPerNode);
  r.tier = r.nodes > 1 ? "inter" : "intra";
  // USL-shaped scaling, latency at small sizes, a slower network across nodes.
  const double scaling = gpus / (1 + 0.02 * (gpus - 1) + 0.0004 * gpus * (gpus - 1));
  const double bytes = family.case_name == "gemm" ? 2 * size * size * size : size;
  const double link = r.nodes > 1 ? 2e9 : 10e9;
  const double seconds = 5e-6 * std::log2(gpus + 1) + bytes / (link * scaling);
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
  r.check = "pass";
  return r;
}

const cb::ResultsFile& large_results() {
  static const cb::ResultsFile results = [] {
    cb::ResultsFile f;
    f.run = {{"id", "report-speed"}, {"backend", "host"}};
    std::mt19937_64 rng(2026);
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

cb::report::ReportOptions options() {
  cb::report::ReportOptions o;
  o.step = cb::report::default_training_step();
  return o;
}

std::string markdown_report(const cb::ResultsFile& results) {
  const auto data = cb::report::build_report_data(results, "bench.json", options());
  return cb::report::render_markdown(cb::report::build_report_document(data));
}

// `report` on a results file without a fits section: it fits the curves it shows.
void BM_ReportWithoutFits(benchmark::State& state) {
  const cb::ResultsFile& results = large_results();
  for (auto _ : state) {
    std::string md = markdown_report(results);
    benchmark::DoNotOptimize(md);
    state.counters["markdown_bytes"] = static_cast<double>(md.size());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRecords));
}
BENCHMARK(BM_ReportWithoutFits)->Unit(benchmark::kMillisecond);

// `fit` (every curve) then `report` reading the stored fits.
void BM_FitThenReport(benchmark::State& state) {
  for (auto _ : state) {
    cb::ResultsFile results = large_results();
    cb::store_fits(results, cb::analyse_scaling(results));
    std::string md = markdown_report(results);
    benchmark::DoNotOptimize(md);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRecords));
}
BENCHMARK(BM_FitThenReport)->Unit(benchmark::kMillisecond);

// As a user runs it: the file parsed and validated, fitted, reported.
void BM_ParseFitReport(benchmark::State& state) {
  const std::string text = cb::results_to_json(large_results()).dump(1);
  for (auto _ : state) {
    cb::ResultsFile results = cb::results_from_json(nlohmann::json::parse(text), "bench.json");
    cb::store_fits(results, cb::analyse_scaling(results));
    std::string md = markdown_report(results);
    benchmark::DoNotOptimize(md);
  }
  state.counters["file_bytes"] = static_cast<double>(text.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRecords));
}
BENCHMARK(BM_ParseFitReport)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
