#pragma once
// STREAM's kernels as cases: arrays of doubles per rank, at least 4 x the last-level cache by
// default (--array-bytes overrides), every rank at once, values checked after timing.
#include "compute/compute_case.hpp"
#include "host/stream_kernels.hpp"

namespace cb {

class StreamCase : public ComputeCase {
public:
  explicit StreamCase(StreamKernel kernel)
      : ComputeCase(std::string(stream_kernel_name(kernel))), kernel_(kernel) {}
  std::vector<Axis> axes() const override { return {array_bytes_axis()}; }
  // {bytes: array bytes per rank (whole doubles), dtype: "double"} for each array size.
  std::vector<nlohmann::json> instances(const RunConfig& config) const override;
  void run(CaseRun& run, const nlohmann::json& params) override;

private:
  void run_on_backend(CaseRun& run, ComputeKernels& kernels);
  StreamKind stream_kind() const;
  StreamKernel kernel_;
};

} // namespace cb
