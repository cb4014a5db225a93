#pragma once
// Launchers of the device kernels (defined in the .cu files), callable from host C++ that never
// sees device code. Every launcher enqueues on the given stream and checks the launch.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "runtime/compute_kernels.hpp"
#include "runtime/dtype.hpp"

namespace cb::cuda {

// Blocks of `threads` of `kernel` resident on the device at once (the occupancy API, which counts
// the kernel's own registers and shared memory): a grid-stride kernel launched with them runs in
// exactly one wave, without a tail wave on part of the SMs.
int blocks_in_one_wave(const void* kernel, int threads, int device);
// Blocks of `threads` that give each of `items` its own thread, capped at the grid's limit (a
// grid-stride kernel loops past it).
int covering_grid(std::size_t items, int threads);
// blocks_in_one_wave for the launchers below that run one wave.
int read_blocks(DType t, int device);
int fma_blocks(DType t, int threads, int device);

// STREAM kernels on float or double arrays (16-byte vector loads and stores, a thread per vector):
// copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c. Element counts must be multiples of 16 bytes.
void launch_stream(StreamKind kind, DType t, void* a, void* b, void* c, std::size_t elements,
                   double scalar, cudaStream_t stream);
// read: sums a into one double per block (partial[blocks]), so the loads cannot be elided.
void launch_read(DType t, const void* a, std::size_t elements, double* partial, int blocks,
                 cudaStream_t stream);

// Fills n elements of type t with `value`, or with uniform values in [-1, 1) from a hash of the
// index and seed (the same on every device and run).
void launch_fill_constant(DType t, void* p, std::size_t n, double value, cudaStream_t stream);
void launch_fill_uniform(DType t, void* p, std::size_t n, std::uint64_t seed, cudaStream_t stream);
// Adds to *count the elements of p that are not exactly `value`.
void launch_count_not_equal(DType t, const void* p, std::size_t n, double value,
                            unsigned long long* count, cudaStream_t stream);

// The training step's: w = bf16(w + step * g) over n bf16 weights and float gradients; and n bf16
// values u * scale, u uniform in [-1, 1) from a hash of the index and seed.
void launch_sgd_update_bf16(void* weights, const float* gradients, std::size_t n, float step,
                            cudaStream_t stream);
void launch_fill_scaled_bf16(void* p, std::size_t n, std::uint64_t seed, float scale,
                             cudaStream_t stream);

// FMA peak: every thread runs kFmaChains independent chains x = x * b + c for `iterations`
// steps (fp16/bf16 on half2 pairs, two FMAs per instruction) and stores its chains to
// out[thread * kFmaChains ...] (out holds blocks * threads * kFmaChains elements of t; fp16/bf16
// as pairs). With b = 0.5 and c = 1, every chain converges to exactly 2.
constexpr int kFmaChains = 8;
void launch_fma_peak(DType t, void* out, int iterations, double b, double c, int blocks,
                     int threads, cudaStream_t stream);
// FMAs one launch performs: blocks * threads * kFmaChains * iterations * lanes (2 for half2).
double fma_count(DType t, int iterations, int blocks, int threads);

// Holds the stream until the host writes a non-zero value to *flag (pinned, mapped host memory),
// so copies queued behind it start together when released (nvbandwidth's timing).
void launch_spin_until(volatile int* flag, cudaStream_t stream);
// Loads the spin and copy kernels on the current device now (cudaFuncGetAttributes forces a
// lazily loaded module in), so that no load has to wait for the device behind a spinning kernel.
void load_copy_kernels();
// A copy by SM loads and stores (16-byte vectors where aligned, a thread per vector), for peer and
// local copies that do not use a copy engine.
void launch_sm_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

} // namespace cb::cuda
