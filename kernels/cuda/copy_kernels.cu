// The kernels of the link measurements: a spin that holds a stream until the host releases it,
// and a copy by SM loads and stores (the "SM initiator" of nvbandwidth).
#include <cstdint>

#include "cuda/cuda_error.hpp"
#include "cuda/device_kernels.hpp"

namespace cb::cuda {
namespace {

__global__ void spin_kernel(volatile int* flag) {
  // One thread polls the host flag through the mapped pinned page; the flag is volatile so every
  // iteration reads memory. A nanosleep keeps the PCIe traffic of the poll negligible.
  while (*flag == 0)
    __nanosleep(1000);
}

// A thread per vector and a grid covering the buffer, like the driver's own copy kernel: on an
// H200 this shape matched cudaMemcpy (4.2 TB/s device-local) where one resident wave looping
// four vectors per thread reached 3.8 (see stream_kernel).
__global__ void sm_copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src,
                               std::size_t vectors) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < vectors; i += stride) {
    dst[i] = src[i];
  }
}

__global__ void byte_copy_kernel(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < bytes;
       i += stride) {
    dst[i] = src[i];
  }
}

} // namespace

void load_copy_kernels() {
  cudaFuncAttributes attributes{};
  CB_CUDA(cudaFuncGetAttributes(&attributes, spin_kernel));
  CB_CUDA(cudaFuncGetAttributes(&attributes, sm_copy_kernel));
  CB_CUDA(cudaFuncGetAttributes(&attributes, byte_copy_kernel));
}

void launch_spin_until(volatile int* flag, cudaStream_t stream) {
  spin_kernel<<<1, 1, 0, stream>>>(flag);
  CB_CUDA(cudaGetLastError());
}

void launch_sm_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  const auto d = reinterpret_cast<std::uintptr_t>(dst);
  const auto s = reinterpret_cast<std::uintptr_t>(src);
  const std::size_t vectors = bytes / 16;
  if (d % 16 == 0 && s % 16 == 0) {
    if (vectors > 0) {
      sm_copy_kernel<<<covering_grid(vectors, 256), 256, 0, stream>>>(static_cast<uint4*>(dst),
                                                 static_cast<const uint4*>(src), vectors);
    }
    if (bytes % 16 != 0) {
      byte_copy_kernel<<<1, 32, 0, stream>>>(static_cast<unsigned char*>(dst) + vectors * 16,
                                             static_cast<const unsigned char*>(src) + vectors * 16,
                                             bytes % 16);
    }
  } else {
    byte_copy_kernel<<<covering_grid(bytes, 256), 256, 0, stream>>>(static_cast<unsigned char*>(dst),
                                                 static_cast<const unsigned char*>(src), bytes);
  }
  CB_CUDA(cudaGetLastError());
}

} // namespace cb::cuda
