// device_local_copy: a copy within one GPU's memory, by copy engine (cudaMemcpyAsync) or by SM
// kernel, every rank at once. gbps counts the bytes copied; read_write_gbps counts each byte read
// and written (the figure to set beside the memory bandwidth of the data sheet).
#include "concurrent_copies.hpp"
#include "core/collective_math.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "gpu_case.hpp"

namespace cb {
namespace {

class DeviceLocalCopyCase : public GpuCase {
public:
  DeviceLocalCopyCase() : GpuCase("links", "device_local_copy") {}

protected:
  std::vector<Axis> axes() const override {
    return {Axis::sizes("bytes", 4, 64ull << 30).defaults("1G").described("bytes per copy"),
            copy_initiator_axis()};
  }
  std::vector<nlohmann::json> gpu_instances(const RunConfig& config) const override {
    return BenchmarkCase::instances(config);
  }

  void run_gpu(CaseRun& run, cuda::CudaBackend& backend, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    const std::size_t bytes = params.at("bytes").get<std::size_t>();
    const bool by_sm = params.at("initiator") == "sm";
    if (const std::string why = short_of_device_memory(ctx, backend, 2 * bytes); !why.empty())
      return run.skip(why);
    Record& record = run.record();
    cuda::DeviceScope scope(backend.device_index());
    cuda::DeviceMemory src(bytes), dst(bytes);
    const std::size_t floats = bytes / sizeof(float);
    cuda::launch_fill_constant(DType::f32, src.get(), floats, 1.5, backend.stream());
    cuda::launch_fill_constant(DType::f32, dst.get(), floats, 0, backend.stream());
    backend.synchronize();
    auto copy_on = [=, s = src.get(), d = dst.get()](cudaStream_t stream) {
      if (by_sm) {
        cuda::launch_sm_copy(d, s, bytes, stream);
      } else {
        CB_CUDA(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, stream));
      }
    };
    // Made once for the record, outside the timed batches; every rank's copies released together
    // after a barrier.
    ConcurrentCopies together(ctx, {{backend.device_index(), copy_on}});
    const double peak = backend.compute()->peak("memory_gbps");
    const int ranks = ctx.comm.size();
    const Measurement measured = run.measure_timed(
        [&](int k) { return together.timed_batch(k); },
        [&](double s, bool whole) {
          const double per_gpu = gbps(static_cast<double>(bytes), s);
          nlohmann::json m = {{"time_us", s * 1e6},
                              {"gbps", whole ? per_gpu * ranks : per_gpu},
                              {"read_write_gbps", 2 * per_gpu * (whole ? ranks : 1)}};
          if (peak > 0)
            m["fraction_of_peak"] = 2 * per_gpu / peak;
          return m;
        });
    const double aggregate = together.aggregate_gbps(measured, bytes);
    note_span_aggregate(record, aggregate);
    if (aggregate > 0)
      record.metrics["read_write_gbps"] = 2 * aggregate;
    if (peak > 0)
      record.extra["peak_gbps"] = peak;
    record.extra["state"] = backend.state();
    const long long wrong = ctx.comm.sum(
        static_cast<long long>(count_float_mismatches(backend, dst.get(), floats, 1.5)));
    run.check(wrong != 0, std::to_string(wrong) + " wrong floats after the copy");
  }
};

} // namespace

CB_REGISTER_CASE(DeviceLocalCopyCase);

} // namespace cb
