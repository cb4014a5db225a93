// host_to_device, device_to_host: copies between host memory (pinned or pageable) and the GPU by
// copy engine, every rank at once, so the aggregate shows how PCIe and host memory hold up as GPUs
// are added. Pinned copies are timed the nvbandwidth way (held stream); pageable copies cannot be
// (the driver stages them synchronously), so they are timed with events around the batch.
#include <algorithm>
#include <memory>

#include "concurrent_copies.hpp"
#include "core/collective_math.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "gpu_case.hpp"

namespace cb {
namespace {

class HostDeviceCopyCase : public GpuCase {
public:
  explicit HostDeviceCopyCase(bool to_device)
      : GpuCase("links", to_device ? "host_to_device" : "device_to_host"), to_device_(to_device) {}

protected:
  std::vector<Axis> axes() const override {
    return {Axis::sizes("bytes", 4, 64ull << 30).defaults("256M").described("bytes per copy"),
            Axis::words("memory", {"pinned", "pageable"})
                .defaults("pinned,pageable")
                .described("the host buffer: page-locked or ordinary memory")};
  }
  std::vector<nlohmann::json> gpu_instances(const RunConfig& config) const override {
    return BenchmarkCase::instances(config);
  }

  void run_gpu(CaseRun& run, cuda::CudaBackend& backend, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    const std::size_t bytes = params.at("bytes").get<std::size_t>();
    const bool pinned = params.at("memory") == "pinned";
    if (const std::string why = short_of_device_memory(ctx, backend, bytes); !why.empty())
      return run.skip(why);
    Record& record = run.record();
    cuda::DeviceScope scope(backend.device_index());
    cuda::HostMemory host(bytes, pinned);
    cuda::DeviceMemory device(bytes);
    // Known data on the source side, checked on the destination side after timing.
    const std::size_t floats = bytes / sizeof(float);
    if (to_device_) {
      std::fill_n(static_cast<float*>(host.get()), floats, 1.5f);
      // On the backend's stream and waited for: a plain cudaMemset may still be running on the
      // legacy stream when the copies start on their own streams.
      CB_CUDA(cudaMemsetAsync(device.get(), 0, bytes, backend.stream()));
      backend.synchronize();
    } else {
      std::fill_n(static_cast<float*>(host.get()), floats, 0.0f);
      cuda::launch_fill_constant(DType::f32, device.get(), floats, 1.5, backend.stream());
      backend.synchronize();
    }
    void* dst = to_device_ ? device.get() : host.get();
    const void* src = to_device_ ? host.get() : device.get();
    const cudaMemcpyKind kind = to_device_ ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    auto copy_on = [=](cudaStream_t s) { CB_CUDA(cudaMemcpyAsync(dst, src, bytes, kind, s)); };

    std::function<double(int)> timed_batch;
    std::unique_ptr<ConcurrentCopies> together;
    if (pinned) {
      // Streams, events and flag made now, outside the timed batches, and every rank's copies
      // released together after a barrier: "every rank at once" is at once.
      together = std::make_unique<ConcurrentCopies>(
          ctx, std::vector<cuda::CopyStream>{{backend.device_index(), copy_on}});
      timed_batch = [&together](int k) { return together->timed_batch(k); };
    } else {
      timed_batch = [&](int k) {
        return backend.time_batch(k, [&] { copy_on(backend.stream()); });
      };
    }
    const double pcie = backend.compute()->peak("pcie_gbps");
    const int ranks = ctx.comm.size();
    const Measurement measured = run.measure_timed(timed_batch, [&](double s, bool whole) {
      const double per_gpu = gbps(static_cast<double>(bytes), s);
      nlohmann::json m = {{"time_us", s * 1e6},
                          {"gbps", whole ? per_gpu * ranks : per_gpu},
                          {"per_gpu_gbps", per_gpu}};
      if (pcie > 0)
        m["fraction_of_peak"] = per_gpu / pcie;
      return m;
    });
    if (together)
      note_span_aggregate(record, together->aggregate_gbps(measured, bytes));
    record.extra["initiator"] = "copy_engine";
    if (pcie > 0)
      record.extra["peak_gbps"] = pcie;
    record.extra["state"] = backend.state();

    std::size_t wrong = 0;
    if (to_device_) {
      wrong = count_float_mismatches(backend, device.get(), floats, 1.5);
    } else {
      const float* h = static_cast<const float*>(host.get());
      wrong =
          static_cast<std::size_t>(std::count_if(h, h + floats, [](float v) { return v != 1.5f; }));
    }
    const long long total = ctx.comm.sum(static_cast<long long>(wrong));
    run.check(total != 0, std::to_string(total) + " wrong floats after the copy");
  }

private:
  bool to_device_;
};

class HostToDeviceCase : public HostDeviceCopyCase {
public:
  HostToDeviceCase() : HostDeviceCopyCase(true) {}
};
class DeviceToHostCase : public HostDeviceCopyCase {
public:
  DeviceToHostCase() : HostDeviceCopyCase(false) {}
};

} // namespace

CB_REGISTER_CASE(HostToDeviceCase);
CB_REGISTER_CASE(DeviceToHostCase);

} // namespace cb
