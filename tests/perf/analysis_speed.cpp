// How long `fit` takes on a large results file: 10,000 records (collectives, compute, links and
// storage cases over message and block sizes, GPU counts 1..64, 20 samples each, per-rank
// figures), curves extracted and every model fitted; and the same with the file serialised and
// parsed around it, as `clusterbench fit` does. Target: under 2 s for the whole.
#include <benchmark/benchmark.h>

#include "analysis/fits_json.hpp"
#include "results/results_io.hpp"
#include "synthetic_results.hpp"

namespace {

constexpr std::size_t kRecords = cb::perf::kSyntheticRecords;

const cb::ResultsFile& large_results() {
  static const cb::ResultsFile results = cb::perf::synthetic_results("analysis-speed", 2024);
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
