// read: a streaming read of one array (sum), 1 x the array bytes: the device memory's read
// bandwidth, the figure HBM data sheets quote. GPU backends only: STREAM has no read kernel, and
// the host family measures memory through copy/scale/add/triad.
#include "compute/compute_case.hpp"
#include "runtime/axis_values.hpp"

namespace cb {

class ReadCase : public ComputeCase {
public:
  ReadCase() : ComputeCase("read") {}

  std::vector<Axis> axes() const override { return {array_bytes_axis()}; }

  // GPU-only: the device's default array (bytes 0 until the run knows the device) or the sizes set.
  std::vector<nlohmann::json> instances(const RunConfig& config) const override {
    if (config.backend_kind == BackendKind::host)
      return {};
    std::vector<nlohmann::json> out;
    for (const auto& v : axis_values(name(), array_bytes_axis(), config))
      out.push_back({{"bytes", v}, {"dtype", "double"}});
    if (out.empty())
      out.push_back({{"bytes", 0ull}, {"dtype", "double"}});
    return out;
  }

  void run(CaseRun& run, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    ComputeKernels* kernels = backend_kernels(ctx);
    if (!kernels)
      return run.skip("the " + ctx.backend.name() + " backend has no read kernel");
    const std::size_t bytes = device_array_bytes(ctx, *kernels, params);
    run.record().params["bytes"] = bytes;
    if (auto why = kernels->why_unsupported_stream(StreamKind::read, DType::f64); !why.empty())
      return run.skip(why);
    auto kernel = kernels->stream(StreamKind::read, DType::f64, bytes);
    measure_backend_kernel(run, *kernel, "gbps", 1e9, "memory_gbps");
  }
};

CB_REGISTER_CASE(ReadCase);

} // namespace cb
