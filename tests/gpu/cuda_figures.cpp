// The figures ci/gpu-check sets beside PyTorch's: HBM copy, BF16 GEMM 8192^3, pinned host<->device
// copies of 256 MiB, and storage reads to host and to GPU, measured with the backend's own kernels
// and timing (median of repeated batches; the GEMM after a second of GEMMs). Prints one JSON
// object; exits 77 without a GPU. `cuda_figures --gemm-only` measures the GEMM alone.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "cuda/compute_kernels_cuda.hpp"
#include "cuda/copy_timing.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/datasheet.hpp"
#include "cuda/storage_to_gpu.hpp"

namespace cb::cuda {
namespace {

double median_seconds(int samples, int batch, const std::function<double(int)>& timed_batch) {
  timed_batch(1); // warm-up
  std::vector<double> s;
  for (int i = 0; i < samples; ++i)
    s.push_back(timed_batch(batch) / batch);
  return median(s);
}

nlohmann::json copy_figure(CudaBackend& backend, bool to_device, std::size_t bytes) {
  HostMemory host(bytes, true);
  DeviceMemory device(bytes);
  const CopyStream stream{
      backend.device_index(), [&](cudaStream_t s) {
        CB_CUDA(cudaMemcpyAsync(to_device ? device.get() : host.get(),
                                to_device ? host.get() : device.get(), bytes,
                                to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s));
      }};
  const double s = median_seconds(7, 8, [&](int k) { return time_held_copies({stream}, 1, k)[0]; });
  return {{"bytes", bytes}, {"gbps", bytes / s / 1e9}};
}

// BF16 GEMM 8192^3 after a second of GEMMs: the figure is the power cap's steady state, as
// ci/gpu-check's PyTorch reference is, not wherever the clock was on the way down from its boost.
nlohmann::json gemm_figure(CudaComputeKernels& compute) {
  auto gemm = compute.gemm("bf16", 8192, 8192, 8192);
  const double one = gemm->run(1);
  gemm->run(static_cast<int>(std::min(20000.0, std::ceil(1.0 / std::max(one, 1e-5)))));
  const double s = median_seconds(10, 5, [&](int k) { return gemm->run(k); });
  return {{"tflops", gemm->work_per_op() / s / 1e12}, {"check", gemm->verify()}};
}

// --gemm-only: the GEMM figure alone, for ci/gpu-check to take it again after the reference ran.
int run_gemm_only() {
  CudaBackend backend(0);
  auto* compute = static_cast<CudaComputeKernels*>(backend.compute());
  const nlohmann::json out = {{"gemm_bf16_8192", gemm_figure(*compute)}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

int run(const std::string& storage_dir) {
  CudaBackend backend(0);
  auto* compute = static_cast<CudaComputeKernels*>(backend.compute());
  nlohmann::json out = {{"device", backend.device()}, {"versions", backend.versions()}};
  if (const auto* d = compute->datasheet()) {
    out["datasheet"] = {{"part", d->part},
                        {"memory_gbps", d->memory_gbps},
                        {"gemm_bf16_tflops", d->gemm_bf16_tflops},
                        {"pcie_gbps", d->pcie_gbps},
                        {"sources", d->sources}};
  }
  {
    const std::size_t bytes = compute->default_array_bytes();
    auto copy = compute->stream(StreamKind::copy, DType::f32, bytes);
    const double s = median_seconds(10, 5, [&](int k) { return copy->run(k); });
    out["hbm_copy"] = {{"array_bytes", bytes},
                       {"gbps", copy->work_per_op() / s / 1e9},
                       {"counts", "bytes read + bytes written"},
                       {"check", copy->verify()}};
    auto triad = compute->stream(StreamKind::triad, DType::f32, bytes);
    const double t = median_seconds(10, 5, [&](int k) { return triad->run(k); });
    out["hbm_triad"] = {{"array_bytes", bytes},
                        {"gbps", triad->work_per_op() / t / 1e9},
                        {"check", triad->verify()}};
  }
  out["gemm_bf16_8192"] = gemm_figure(*compute);
  out["h2d_pinned"] = copy_figure(backend, true, 256u << 20);
  out["d2h_pinned"] = copy_figure(backend, false, 256u << 20);
  {
    std::filesystem::create_directories(storage_dir);
    const ReadFile file = prepare_read_file(storage_dir + "/figures.bin", 1ull << 30, 99);
    StorageToGpu reader(file, 1u << 20, backend.device_index(), backend.stream(), false);
    auto median_pass = [&](bool to_gpu) {
      std::vector<double> s;
      for (int i = 0; i < 3; ++i)
        s.push_back(reader.pass(to_gpu));
      return median(s);
    };
    const double host = median_pass(false), gpu = median_pass(true);
    const double bytes = static_cast<double>(reader.bytes_per_pass());
    out["storage"] = {{"bytes", bytes},
                      {"block_bytes", 1u << 20},
                      {"to_host_gbps", bytes / host / 1e9},
                      {"to_gpu_gbps", bytes / gpu / 1e9},
                      {"direct_io", reader.direct()},
                      {"note", reader.note()},
                      {"check", reader.verify()}};
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

} // namespace
} // namespace cb::cuda

int main(int argc, char** argv) {
  std::string why;
  if (cb::cuda::count_cuda_devices(why) == 0) {
    std::printf("SKIP: no usable GPU: %s\n", why.c_str());
    return 77;
  }
  const std::string first = argc > 1 ? argv[1] : "/tmp/clusterbench-storage-gpu";
  try {
    if (first == "--gemm-only")
      return cb::cuda::run_gemm_only();
    return cb::cuda::run(first);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuda_figures: %s\n", e.what());
    return 3;
  }
}
