#include "cuda/cuda_handles.hpp"

#include <cstdlib>

#include "core/error.hpp"

namespace cb::cuda {

HostMemory::HostMemory(std::size_t bytes, bool pinned) : bytes_(bytes), pinned_(pinned) {
  if (bytes == 0)
    return;
  if (pinned) {
    CB_CUDA(cudaMallocHost(&ptr_, bytes));
  } else {
    // Page-aligned like malloc of large blocks, so pageable copies are not penalised by alignment.
    ptr_ = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (!ptr_)
      CB_RUN_ERROR("cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  }
}

HostMemory::~HostMemory() {
  if (!ptr_)
    return;
  if (pinned_) {
    cudaFreeHost(ptr_);
  } else {
    std::free(ptr_);
  }
}

double elapsed_seconds(const Event& start, const Event& stop) {
  CB_CUDA(cudaEventSynchronize(stop.get()));
  float ms = 0;
  CB_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return static_cast<double>(ms) * 1e-3;
}

} // namespace cb::cuda
