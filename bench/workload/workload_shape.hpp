#pragma once
// The shape of the data-parallel training step on the host (a GPU backend's is
// transformer_shape.hpp), from the run's flags: `layers` square linear layers of `width` x
// `width` float weights, each GPU training on `tokens` tokens per step. Forward is one GEMM per
// layer (tokens x width times width x width), backward two (the weight gradient and the input
// gradient), so a step is 6 x params x tokens FLOP, the count analysis/prediction.hpp prices.
// Pure functions, unit-tested.
#include <cstdint>
#include <string>

#include "runtime/run_config.hpp"

namespace cb {

// Host defaults: 4 layers of 2048 (16.8 M parameters, 64 MiB of float gradients, three 25 MiB
// buckets) and 256 tokens: 25.8 GFLOP, 0.1-1 s on one core at 25-250 GFLOP/s.
inline constexpr double kHostDefaultParams = 4.0 * 2048 * 2048;
inline constexpr double kHostDefaultTokens = 256;
inline constexpr int kMaxWidth = 2048;

struct WorkloadShape {
  int width = 0;
  int layers = 0;
  int tokens = 0;

  double params() const { return static_cast<double>(layers) * width * width; }
  std::uint64_t layer_elements() const { return static_cast<std::uint64_t>(width) * width; }
  std::uint64_t gradient_bytes() const { return layer_elements() * layers * sizeof(float); }
  double flops_per_step() const { return 6.0 * params() * tokens; }
  // Weights, gradients, the activations of every layer and two activation gradients.
  std::uint64_t memory_bytes() const;
};

// From --model-params (else kHostDefaultParams) and --tokens-per-gpu (else kHostDefaultTokens):
// width kMaxWidth, or for models under 4 such layers the width (a multiple of 64, at least 64)
// of 4 layers; layers = params / width^2, rounded, at least 1. InputError naming the flag when
// the model cannot be built (more than 2^31 layers or tokens).
WorkloadShape workload_shape(const RunConfig& config);

// The checks made before anything runs, for `local_ranks` ranks on this node: InputError naming
// --model-params when the model of every local rank does not fit in `memory_bytes` of host
// memory (leaving a quarter of it to the system), --bucket-bytes and --input-bytes-per-step when
// they cannot be used.
void check_workload_memory(const WorkloadShape& shape, int local_ranks, std::uint64_t memory_bytes,
                           std::uint64_t input_ring_bytes);
// A GPU step's host side: the pinned --prefetch ring of every local rank against the same 3/4 of
// `memory_bytes` (the model lives on the GPUs). InputError naming --input-bytes-per-step.
void check_input_ring_memory(int local_ranks, std::uint64_t memory_bytes,
                             std::uint64_t input_ring_bytes);

// The bytes each step reads per GPU: --input-bytes-per-step rounded up to whole read blocks of
// `block_bytes` (the storage family's first --block-sizes, at most the batch itself, in 4 KiB
// chunks). 0 when no input is read.
std::uint64_t batch_bytes(std::uint64_t input_bytes_per_step, std::uint64_t block_bytes);
std::uint64_t batch_block_bytes(std::uint64_t input_bytes_per_step, std::uint64_t block_bytes);

// Data bytes of each rank's storage file when input is read: the storage family's size (the same
// file its cases read), or one whole batch when a batch is larger. Step s reads batch
// s mod (file bytes / batch).
std::uint64_t workload_file_bytes(std::uint64_t storage_file_bytes, std::uint64_t batch);

} // namespace cb
