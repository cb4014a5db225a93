// FMA peak: independent dependency chains per thread cover the FMA pipeline's latency, so the
// figure is the arithmetic throughput of the CUDA cores (not the tensor cores). fp16 and bf16 run
// on half2 / bfloat162 pairs: one instruction, two FMAs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "core/error.hpp"
#include "cuda/cuda_error.hpp"
#include "cuda/device_kernels.hpp"

namespace cb::cuda {
namespace {

template <typename T> __global__ void fma_kernel(T* out, int iterations, T b, T c) {
  T x[kFmaChains];
#pragma unroll
  for (int i = 0; i < kFmaChains; ++i)
    x[i] = T{};
  // Unrolled 16 deep: 128 FMAs per loop trip, so the counter, compare and branch take ~2 % of the
  // issue slots instead of ~9 % at nvcc's own 4.
#pragma unroll 16
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < kFmaChains; ++i)
      x[i] = x[i] * b + c; // contracted to one FMA
  }
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < kFmaChains; ++i)
    out[thread * kFmaChains + i] = x[i];
}

template <typename T2> __global__ void fma2_kernel(T2* out, int iterations, T2 b, T2 c) {
  T2 x[kFmaChains];
#pragma unroll
  for (int i = 0; i < kFmaChains; ++i)
    x[i] = __hmul2(b, c) - __hmul2(b, c); // zero, opaque
#pragma unroll 16
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < kFmaChains; ++i)
      x[i] = __hfma2(x[i], b, c);
  }
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < kFmaChains; ++i)
    out[thread * kFmaChains + i] = x[i];
}

} // namespace

void launch_fma_peak(DType t, void* out, int iterations, double b, double c, int blocks,
                     int threads, cudaStream_t stream) {
  switch (t) {
  case DType::f32:
    fma_kernel<float><<<blocks, threads, 0, stream>>>(static_cast<float*>(out), iterations,
                                                      static_cast<float>(b), static_cast<float>(c));
    break;
  case DType::f64:
    fma_kernel<double><<<blocks, threads, 0, stream>>>(static_cast<double*>(out), iterations, b, c);
    break;
  case DType::f16:
    fma2_kernel<__half2><<<blocks, threads, 0, stream>>>(
        static_cast<__half2*>(out), iterations,
        __floats2half2_rn(static_cast<float>(b), static_cast<float>(b)),
        __floats2half2_rn(static_cast<float>(c), static_cast<float>(c)));
    break;
  case DType::bf16:
    fma2_kernel<__nv_bfloat162><<<blocks, threads, 0, stream>>>(
        static_cast<__nv_bfloat162*>(out), iterations,
        __floats2bfloat162_rn(static_cast<float>(b), static_cast<float>(b)),
        __floats2bfloat162_rn(static_cast<float>(c), static_cast<float>(c)));
    break;
  default:
    CB_RUN_ERROR("fma_peak: no kernel for this element type");
  }
  CB_CUDA(cudaGetLastError());
}

int fma_blocks(DType t, int threads, int device) {
  const void* kernel = nullptr;
  switch (t) {
  case DType::f32:
    kernel = reinterpret_cast<const void*>(fma_kernel<float>);
    break;
  case DType::f64:
    kernel = reinterpret_cast<const void*>(fma_kernel<double>);
    break;
  case DType::f16:
    kernel = reinterpret_cast<const void*>(fma2_kernel<__half2>);
    break;
  case DType::bf16:
    kernel = reinterpret_cast<const void*>(fma2_kernel<__nv_bfloat162>);
    break;
  default:
    CB_RUN_ERROR("fma_peak: no kernel for this element type");
  }
  return blocks_in_one_wave(kernel, threads, device);
}

double fma_count(DType t, int iterations, int blocks, int threads) {
  const double lanes = (t == DType::f16 || t == DType::bf16) ? 2 : 1;
  return static_cast<double>(blocks) * threads * kFmaChains * iterations * lanes;
}

} // namespace cb::cuda
