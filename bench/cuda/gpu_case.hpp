#pragma once
// What the GPU-only cases share: they run on the cuda backend and produce no instances for a host
// run (so host results carry no empty GPU rows); under `--backend auto` outside our own launcher,
// a host backend skips them with the reason.
#include <string>
#include <vector>

#include "cuda/copy_timing.hpp"
#include "cuda/cuda_backend.hpp"
#include "runtime/case.hpp"

namespace cb {

class GpuCase : public BenchmarkCase {
public:
  std::vector<nlohmann::json> instances(const RunConfig& config) const override {
    if (config.backend == "host")
      return {};
    return gpu_instances(config);
  }
  std::vector<Record> run(const CaseContext& ctx, const nlohmann::json& params) override {
    auto* cuda = dynamic_cast<cuda::CudaBackend*>(&ctx.backend);
    if (!cuda) {
      Record r = ctx.new_record(suite(), name(), params);
      CaseContext::skip(r, "needs the cuda backend (this run uses " + ctx.backend.name() + ")");
      return {r};
    }
    return run_gpu(ctx, *cuda, params);
  }

protected:
  // Who moves a copy's bytes: the copy engines (cudaMemcpyAsync) or a kernel on the SMs.
  static Axis copy_initiator_axis() {
    return Axis::words("initiator", {"copy_engine", "sm"})
        .defaults("copy_engine,sm")
        .described("who moves the bytes: the copy engines or a kernel on the SMs");
  }
  virtual std::vector<nlohmann::json> gpu_instances(const RunConfig& config) const = 0;
  virtual std::vector<Record> run_gpu(const CaseContext& ctx, cuda::CudaBackend& backend,
                                      const nlohmann::json& params) = 0;
};

// "" when every rank's GPU has `bytes` free now (cudaMemGetInfo, beside a reserve:
// cuda/memory_check.hpp), else why not; the same decision on every rank (collective over
// ctx.comm), rank 0's reason where it is short itself. A case skips its record with it rather
// than let an allocation fail and end the run.
std::string short_of_device_memory(const CaseContext& ctx, cuda::CudaBackend& backend,
                                   std::size_t bytes);

// Runs k timed copies as rounds of at most 32 held copies (the launch queue must hold a round),
// on one record's held streams (made once for the record: cuda/copy_timing.hpp).
double held_copy_seconds(cuda::HeldCopies& held, int k);
// The same on streams made for this call alone.
double held_copy_seconds(const std::vector<cuda::CopyStream>& streams, int k);
// The same, each stream's own seconds (its own events), for streams of different pairs running
// at once.
std::vector<double> held_copy_seconds_each(const std::vector<cuda::CopyStream>& streams, int k);
// Floats of device buffer p (n of them, on the backend's device) that are not `value`.
std::size_t count_float_mismatches(cuda::CudaBackend& backend, const void* p, std::size_t n,
                                   double value);

} // namespace cb
