#pragma once
// What the GPU-only cases share: they run on the cuda backend and produce no instances for a host
// run (so host results carry no empty GPU rows); under `--backend auto` outside our own launcher,
// a host backend skips them with the reason.
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "cuda/copy_timing.hpp"
#include "cuda/cuda_backend.hpp"
#include "runtime/case.hpp"

namespace cb {

// The cuda backend's own calls (its stream, its device index) for the cases and parts that run
// on it: the one place a Backend is cast to its type, once the run's kind says it is the cuda
// backend. Throws a RunError on another backend. `B` is Backend or const Backend.
template <typename B> auto& cuda_backend_of(B& backend, BackendKind kind) {
  using Cuda = std::conditional_t<std::is_const_v<B>, const cuda::CudaBackend, cuda::CudaBackend>;
  auto* cuda = kind == BackendKind::cuda ? dynamic_cast<Cuda*>(&backend) : nullptr;
  if (!cuda)
    CB_RUN_ERROR("needs the cuda backend, not " + backend.name());
  return *cuda;
}

class GpuCase : public BenchmarkCase {
public:
  std::vector<nlohmann::json> instances(const RunConfig& config) const override {
    if (config.backend_kind == BackendKind::host)
      return {};
    return gpu_instances(config);
  }
  void run(CaseRun& run, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    if (ctx.backend_kind() != BackendKind::cuda)
      return run.skip("needs the cuda backend (this run uses " + ctx.backend.name() + ")");
    run_gpu(run, cuda_backend_of(ctx.backend, ctx.backend_kind()), params);
  }

protected:
  GpuCase(std::string suite, std::string name, CaseTraits traits = {})
      : BenchmarkCase(std::move(suite), std::move(name), traits) {}
  // Who moves a copy's bytes: the copy engines (cudaMemcpyAsync) or a kernel on the SMs.
  static Axis copy_initiator_axis() {
    return Axis::words("initiator", {"copy_engine", "sm"})
        .defaults("copy_engine,sm")
        .described("who moves the bytes: the copy engines or a kernel on the SMs");
  }
  virtual std::vector<nlohmann::json> gpu_instances(const RunConfig& config) const = 0;
  virtual void run_gpu(CaseRun& run, cuda::CudaBackend& backend, const nlohmann::json& params) = 0;
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
// Floats of device buffer p (n of them, on the backend's device) that are not `value`.
std::size_t count_float_mismatches(cuda::CudaBackend& backend, const void* p, std::size_t n,
                                   double value);

} // namespace cb
