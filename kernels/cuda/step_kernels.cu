// The training step's own kernels (bench/cuda/data_parallel_step_cuda.cpp): the SGD update of
// bf16 weights by float gradients, and scaled uniform fills of its bf16 tensors. Grid-stride loops,
// a thread per element.
#include <cuda_bf16.h>

#include "cuda/cuda_error.hpp"
#include "cuda/device_kernels.hpp"

namespace cb::cuda {
namespace {

constexpr int kThreads = 256;

__device__ std::uint64_t hash_index(std::uint64_t x) {
  x = (x + 1) * 0x9e3779b97f4a7c15ull;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  return x;
}

__global__ void sgd_update_kernel(__nv_bfloat16* __restrict__ w, const float* __restrict__ g,
                                  std::size_t n, float step) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    w[i] = __float2bfloat16(fmaf(step, g[i], __bfloat162float(w[i])));
}

// u in [-1, 1) from the index and seed, times scale, rounded once to bf16: a power-of-two scale
// gives exactly that multiple of the unscaled values (the rounding commutes with it).
__global__ void fill_scaled_kernel(__nv_bfloat16* p, std::size_t n, std::uint64_t seed,
                                   float scale) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const float u = static_cast<float>(hash_index(i ^ (seed << 40)) >> 40) * 0x1.0p-23f - 1.0f;
    p[i] = __float2bfloat16(u * scale);
  }
}

} // namespace

void launch_sgd_update_bf16(void* weights, const float* gradients, std::size_t n, float step,
                            cudaStream_t stream) {
  sgd_update_kernel<<<covering_grid(n, kThreads), kThreads, 0, stream>>>(
      static_cast<__nv_bfloat16*>(weights), gradients, n, step);
  CB_CUDA(cudaGetLastError());
}

void launch_fill_scaled_bf16(void* p, std::size_t n, std::uint64_t seed, float scale,
                             cudaStream_t stream) {
  fill_scaled_kernel<<<covering_grid(n, kThreads), kThreads, 0, stream>>>(
      static_cast<__nv_bfloat16*>(p), n, seed, scale);
  CB_CUDA(cudaGetLastError());
}

} // namespace cb::cuda
