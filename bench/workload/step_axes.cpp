#include "workload/step_axes.hpp"

#include "runtime/axis_values.hpp"

namespace cb {

Axis step_bucket_axis() {
  return Axis::sizes("bucket_bytes", 4, 1ull << 40)
      .defaults("25M")
      .spelled("bucket-bytes")
      .described("gradient all-reduce bucket (25M, as PyTorch DDP's)");
}

Axis step_overlap_axis() {
  return Axis::words("overlap", {"on", "off"})
      .defaults("on")
      .spelled("overlap")
      .described("all-reduce each bucket during backward (on) or after it (off)");
}

std::vector<std::uint64_t> step_bucket_sizes(const RunConfig& config) {
  std::vector<std::uint64_t> out;
  for (const auto& v : axis_values(kStepCaseName, step_bucket_axis(), config))
    out.push_back(v.get<std::uint64_t>());
  return out;
}

StepSync step_sync(const nlohmann::json& params) {
  StepSync s;
  s.bucket_bytes = params.value("bucket_bytes", s.bucket_bytes);
  s.overlap = params.value("overlap", std::string("on")) == "on";
  return s;
}

} // namespace cb
