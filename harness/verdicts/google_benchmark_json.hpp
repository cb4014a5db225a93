#pragma once
// Google Benchmark's JSON output (--benchmark_format=json or --benchmark_out) read as clusterbench
// results, so the harness's own speed benchmarks are gated by `check` like any other run.
//
// Each benchmark run becomes one record: suite "google_benchmark", case = run_name (the name
// without the aggregate suffix), gpus 1, samples_s = the real_time of each repetition (entries
// with run_type "iteration") converted from time_unit to seconds. Aggregates (mean, median,
// stddev, cv) are ignored: the statistics are recomputed from the repetitions.
#include <nlohmann/json.hpp>
#include <string>

#include "results/record.hpp"

namespace cb {

inline constexpr const char* kGoogleBenchmarkSuite = "google_benchmark";

// True for a top-level object with "context" and "benchmarks" keys.
bool is_google_benchmark_json(const nlohmann::json& j);

// Throws InputError("SOURCE: benchmarks[i]: field ...") for entries that cannot be read.
ResultsFile results_from_google_benchmark(const nlohmann::json& j, const std::string& source);

} // namespace cb
