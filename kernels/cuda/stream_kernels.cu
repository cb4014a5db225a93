// STREAM kernels, fills and checks. Arrays are walked as 16-byte vectors (float4 / double2). The
// read kernel runs one resident wave, four vectors in flight per thread, and reduces per block; the
// others give each vector its own thread (see stream_kernel).
#include <algorithm>
#include <limits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "cuda/cuda_error.hpp"
#include "cuda/device_kernels.hpp"

namespace cb::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;

template <typename T> struct Vec;
template <> struct Vec<float> {
  using type = float4;
  static constexpr int lanes = 4;
};
template <> struct Vec<double> {
  using type = double2;
  static constexpr int lanes = 2;
};

template <typename V, typename S> __device__ V scale_vec(V v, S s);
template <> __device__ float4 scale_vec(float4 v, float s) {
  return make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
}
template <> __device__ double2 scale_vec(double2 v, double s) {
  return make_double2(v.x * s, v.y * s);
}
__device__ float4 add_vec(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ double2 add_vec(double2 a, double2 b) {
  return make_double2(a.x + b.x, a.y + b.y);
}
__device__ float4 fma_vec(float4 a, float s, float4 b) {
  return make_float4(fmaf(s, a.x, b.x), fmaf(s, a.y, b.y), fmaf(s, a.z, b.z), fmaf(s, a.w, b.w));
}
__device__ double2 fma_vec(double2 a, double s, double2 b) {
  return make_double2(fma(s, a.x, b.x), fma(s, a.y, b.y));
}

// One kernel for the four STREAM operations, so every one has the same loop structure: one
// 16-byte vector per thread and a grid that covers the array (the loop only runs again past
// 2^31 - 1 blocks). On an H200 this memcpy-like grid copies 1 GiB at 4.23 TB/s, as fast as the
// driver's cudaMemcpy; a grid of one resident wave looping over the array, four vectors per
// thread, reached 3.83 TB/s (both timed with CUDA events, 1 GiB arrays, median of 15 launches,
// in one program). Inputs are const and __restrict__ so the loads may take the read-only path.
template <typename T, int Op>
__global__ void stream_kernel(const typename Vec<T>::type* __restrict__ x,
                              const typename Vec<T>::type* __restrict__ y,
                              typename Vec<T>::type* __restrict__ out, std::size_t vectors, T s) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < vectors; i += stride) {
    if constexpr (Op == 0)
      out[i] = x[i];
    if constexpr (Op == 1)
      out[i] = scale_vec(x[i], s);
    if constexpr (Op == 2)
      out[i] = add_vec(x[i], y[i]);
    if constexpr (Op == 3)
      out[i] = fma_vec(x[i], s, y[i]);
  }
}

template <typename T>
__global__ void read_kernel(const typename Vec<T>::type* __restrict__ a, std::size_t vectors,
                            double* partial) {
  using V = typename Vec<T>::type;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  T sum[kUnroll] = {};
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    V x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      x[u] = __ldcs(a + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if constexpr (Vec<T>::lanes == 4) {
        sum[u] += (x[u].x + x[u].y) + (x[u].z + x[u].w);
      } else {
        sum[u] += x[u].x + x[u].y;
      }
    }
  }
  for (; i < vectors; i += stride) {
    const V x = a[i];
    if constexpr (Vec<T>::lanes == 4) {
      sum[0] += (x.x + x.y) + (x.z + x.w);
    } else {
      sum[0] += x.x + x.y;
    }
  }
  double mine = 0;
#pragma unroll
  for (int u = 0; u < kUnroll; ++u)
    mine += static_cast<double>(sum[u]);
  __shared__ double block[kThreads];
  block[threadIdx.x] = mine;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half)
      block[threadIdx.x] += block[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = block[0];
}

__device__ std::uint64_t mix(std::uint64_t x) {
  // splitmix64 finaliser: a cheap, well-spread hash of the index.
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <typename T> __device__ T from_double(double v) {
  return static_cast<T>(v);
}
template <> __device__ __half from_double<__half>(double v) {
  return __double2half(v);
}
template <> __device__ __nv_bfloat16 from_double<__nv_bfloat16>(double v) {
  return __double2bfloat16(v);
}
template <> __device__ __nv_fp8_e4m3 from_double<__nv_fp8_e4m3>(double v) {
  return __nv_fp8_e4m3(static_cast<float>(v));
}
template <typename T> __device__ double to_double(T v) {
  return static_cast<double>(v);
}
template <> __device__ double to_double<__half>(__half v) {
  return __half2float(v);
}
template <> __device__ double to_double<__nv_bfloat16>(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <> __device__ double to_double<__nv_fp8_e4m3>(__nv_fp8_e4m3 v) {
  return static_cast<float>(v);
}

template <typename T>
__global__ void fill_kernel(T* p, std::size_t n, double value, bool uniform, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    double v = value;
    if (uniform)
      v = static_cast<double>(mix(i ^ (seed << 40)) >> 11) * 0x1.0p-52 - 1.0;
    p[i] = from_double<T>(v);
  }
}

template <typename T>
__global__ void count_not_equal_kernel(const T* p, std::size_t n, double value,
                                       unsigned long long* count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long wrong = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if (to_double<T>(p[i]) != value)
      ++wrong;
  }
  if (wrong)
    atomicAdd(count, wrong);
}

template <typename T>
void launch_stream_typed(StreamKind kind, void* a, void* b, void* c, std::size_t elements,
                         double scalar, cudaStream_t stream) {
  using V = typename Vec<T>::type;
  const std::size_t vectors = elements / Vec<T>::lanes;
  auto* va = static_cast<V*>(a);
  auto* vb = static_cast<V*>(b);
  auto* vc = static_cast<V*>(c);
  const T s = static_cast<T>(scalar);
  const int grid = covering_grid(vectors, kThreads);
  switch (kind) {
  case StreamKind::copy: // c = a
    stream_kernel<T, 0><<<grid, kThreads, 0, stream>>>(va, nullptr, vc, vectors, s);
    break;
  case StreamKind::scale: // b = s * c
    stream_kernel<T, 1><<<grid, kThreads, 0, stream>>>(vc, nullptr, vb, vectors, s);
    break;
  case StreamKind::add: // c = a + b
    stream_kernel<T, 2><<<grid, kThreads, 0, stream>>>(va, vb, vc, vectors, s);
    break;
  case StreamKind::triad: // a = b + s * c
    stream_kernel<T, 3><<<grid, kThreads, 0, stream>>>(vc, vb, va, vectors, s);
    break;
  case StreamKind::read:
    break;
  }
}

// Calls f with a null pointer of the element type of t (for dispatching templates).
template <typename F> void with_type(DType t, F f) {
  switch (t) {
  case DType::f32:
    f(static_cast<float*>(nullptr));
    return;
  case DType::f64:
    f(static_cast<double*>(nullptr));
    return;
  case DType::i32:
    f(static_cast<int*>(nullptr));
    return;
  case DType::f16:
    f(static_cast<__half*>(nullptr));
    return;
  case DType::bf16:
    f(static_cast<__nv_bfloat16*>(nullptr));
    return;
  case DType::f8e4m3:
    f(static_cast<__nv_fp8_e4m3*>(nullptr));
    return;
  }
}

int grid_for(std::size_t n) {
  const std::size_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 4096 ? (blocks == 0 ? 1 : blocks) : 4096);
}

} // namespace

int covering_grid(std::size_t items, int threads) {
  const std::size_t blocks = (items + threads - 1) / threads;
  return static_cast<int>(std::clamp<std::size_t>(blocks, 1, std::numeric_limits<int>::max()));
}

int blocks_in_one_wave(const void* kernel, int threads, int device) {
  int current = 0;
  CB_CUDA(cudaGetDevice(&current));
  CB_CUDA(cudaSetDevice(device)); // the occupancy API answers for the current device
  int sms = 0, per_sm = 0;
  const cudaError_t attribute = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const cudaError_t occupancy =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0);
  CB_CUDA(cudaSetDevice(current));
  CB_CUDA(attribute);
  CB_CUDA(occupancy);
  return sms * (per_sm > 0 ? per_sm : 1);
}

int read_blocks(DType t, int device) {
  return t == DType::f64 ? blocks_in_one_wave(reinterpret_cast<const void*>(read_kernel<double>),
                                              kThreads, device)
                         : blocks_in_one_wave(reinterpret_cast<const void*>(read_kernel<float>),
                                              kThreads, device);
}

void launch_stream(StreamKind kind, DType t, void* a, void* b, void* c, std::size_t elements,
                   double scalar, cudaStream_t stream) {
  if (t == DType::f64) {
    launch_stream_typed<double>(kind, a, b, c, elements, scalar, stream);
  } else {
    launch_stream_typed<float>(kind, a, b, c, elements, scalar, stream);
  }
  CB_CUDA(cudaGetLastError());
}

void launch_read(DType t, const void* a, std::size_t elements, double* partial, int blocks,
                 cudaStream_t stream) {
  if (t == DType::f64) {
    read_kernel<double>
        <<<blocks, kThreads, 0, stream>>>(static_cast<const double2*>(a), elements / 2, partial);
  } else {
    read_kernel<float>
        <<<blocks, kThreads, 0, stream>>>(static_cast<const float4*>(a), elements / 4, partial);
  }
  CB_CUDA(cudaGetLastError());
}

void launch_fill_constant(DType t, void* p, std::size_t n, double value, cudaStream_t stream) {
  with_type(t, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    fill_kernel<T><<<grid_for(n), kThreads, 0, stream>>>(static_cast<T*>(p), n, value, false, 0);
  });
  CB_CUDA(cudaGetLastError());
}

void launch_fill_uniform(DType t, void* p, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
  with_type(t, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    fill_kernel<T><<<grid_for(n), kThreads, 0, stream>>>(static_cast<T*>(p), n, 0, true, seed);
  });
  CB_CUDA(cudaGetLastError());
}

void launch_count_not_equal(DType t, const void* p, std::size_t n, double value,
                            unsigned long long* count, cudaStream_t stream) {
  with_type(t, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    count_not_equal_kernel<T>
        <<<grid_for(n), kThreads, 0, stream>>>(static_cast<const T*>(p), n, value, count);
  });
  CB_CUDA(cudaGetLastError());
}

} // namespace cb::cuda
