// How long `report` takes on a large results file: 10,000 records (collectives, compute, links and
// storage cases over message and block sizes, GPU counts 1..64 on 8-GPU nodes, 20 samples each,
// per-rank figures), with every part the training-step prediction needs. Timed: the report
// fitting what it shows itself (no fits section); `fit` then `report` (every curve fitted and
// stored, the report reading the stored fits); and that with the file parsed first, as a user
// runs it. Markdown only, no plots. Target: under 2 s for the whole.
#include <benchmark/benchmark.h>

#include "analysis/fits_json.hpp"
#include "report/markdown_renderer.hpp"
#include "report/report_builder.hpp"
#include "results/results_io.hpp"
#include "synthetic_results.hpp"

namespace {

constexpr std::size_t kRecords = cb::perf::kSyntheticRecords;

const cb::ResultsFile& large_results() {
  static const cb::ResultsFile results = cb::perf::synthetic_results("report-speed", 2026);
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
