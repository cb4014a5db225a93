// A large synthetic results file for the harness's speed benchmarks: 10,000 records over every
// family (collectives over message sizes and dtypes, compute, GEMM, storage queue depths, links),
// GPU counts 1..64 on 8-GPU nodes, 20 samples each, per-rank figures. The figures follow a
// USL-shaped scaling with latency at small sizes and a slower network across nodes, so every fit
// the analysis makes has something to fit.
#pragma once

#include <cstdint>
#include <string>

#include "results/record.hpp"

namespace cb::perf {

inline constexpr std::size_t kSyntheticRecords = 10000;

// The same (id, seed) always gives the same file.
ResultsFile synthetic_results(const std::string& run_id, std::uint64_t seed);

} // namespace cb::perf
