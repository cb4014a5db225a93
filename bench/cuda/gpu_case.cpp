#include "gpu_case.hpp"

#include <algorithm>

#include "core/units.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/memory_check.hpp"

namespace cb {

double held_copy_seconds(cuda::HeldCopies& held, int k) {
  constexpr int kRound = 32;
  double total = 0;
  while (k > 0) {
    const int n = std::min(k, kRound);
    const std::vector<double> seconds = held.time(1, n);
    // A rank with no copy of its own (a P2P step it sits out) still takes part in the release.
    if (!seconds.empty())
      total += *std::max_element(seconds.begin(), seconds.end());
    k -= n;
  }
  return total;
}

std::string short_of_device_memory(const CaseContext& ctx, cuda::CudaBackend& backend,
                                   std::size_t bytes) {
  cuda::DeviceScope scope(backend.device_index());
  std::size_t free_bytes = 0, total_bytes = 0;
  CB_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::string mine = cuda::device_memory_shortfall(
      bytes, free_bytes, backend.device().value("pci_bus_id", std::string("?")));
  const long long short_ranks = ctx.comm.sum(static_cast<long long>(!mine.empty()));
  if (short_ranks == 0)
    return "";
  if (!mine.empty() && ctx.comm.rank() == 0)
    return mine;
  return std::to_string(short_ranks) + " rank(s) short of GPU memory: each needs " +
         approximate_size(bytes) + " free beside a reserve";
}

std::size_t count_float_mismatches(cuda::CudaBackend& backend, const void* p, std::size_t n,
                                   double value) {
  cuda::DeviceScope scope(backend.device_index());
  cuda::DeviceMemory count(sizeof(unsigned long long));
  CB_CUDA(cudaMemsetAsync(count.get(), 0, sizeof(unsigned long long), backend.stream()));
  cuda::launch_count_not_equal(DType::f32, p, n, value,
                               static_cast<unsigned long long*>(count.get()), backend.stream());
  unsigned long long wrong = 0;
  CB_CUDA(
      cudaMemcpyAsync(&wrong, count.get(), sizeof wrong, cudaMemcpyDeviceToHost, backend.stream()));
  backend.synchronize();
  return static_cast<std::size_t>(wrong);
}

} // namespace cb
