#pragma once
// The training step's axes: the gradient bucket size and whether buckets are all-reduced during
// backward. Each combination is one record, so `--axis bucket_bytes=4M,25M,100M` sweeps DDP's
// bucket knob; the host and cuda steps read them from the record's params.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/axis.hpp"
#include "runtime/run_config.hpp"

namespace cb {

inline constexpr const char* kStepCaseName = "data_parallel_step";

Axis step_bucket_axis();
Axis step_overlap_axis();

// Every bucket size this run's step takes (for the checks made before it starts).
std::vector<std::uint64_t> step_bucket_sizes(const RunConfig& config);

// What one instance asks of the step.
struct StepSync {
  std::uint64_t bucket_bytes = 25ull << 20;
  bool overlap = true;
};
StepSync step_sync(const nlohmann::json& params);

} // namespace cb
