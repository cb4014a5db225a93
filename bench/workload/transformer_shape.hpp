#pragma once
// The shape of the training step on a GPU backend: `blocks` transformer layers of hidden size
// `hidden` as GPT's, each four linear layers (attention QKV hidden -> 3 hidden, attention output
// hidden -> hidden, MLP up hidden -> 4 hidden, MLP down 4 hidden -> hidden: 12 hidden^2
// parameters), `tokens` tokens per GPU per step. These are the parameter GEMMs of a layer, the
// work 6 x params x tokens counts (analysis/prediction.hpp); attention's score GEMMs, which have
// no parameters, are left out. Pure functions, unit-tested.
#include <cstdint>
#include <vector>

#include "runtime/run_config.hpp"

namespace cb {

// GPU defaults: 2 layers of hidden 8192 (1.6 G parameters, 6.4 GB of float gradients) and 8192
// tokens: 79 TFLOP per step, about 0.1 s on a GPU of 700 TFLOP/s bf16. With tokens = hidden the
// attention output's forward GEMM is compute/gemm's 8192^3, so the two can be set side by side.
inline constexpr int kGpuDefaultHidden = 8192;
inline constexpr int kGpuDefaultBlocks = 2;
inline constexpr double kGpuDefaultTokens = 8192;
// Hidden sizes are multiples of this (16-byte aligned bf16 rows, whole tensor-core tiles).
inline constexpr int kHiddenMultiple = 128;

struct LinearLayer {
  int in = 0, out = 0;
  std::uint64_t elements() const { return static_cast<std::uint64_t>(in) * out; }
};

struct TransformerShape {
  int hidden = 0;
  int blocks = 0;
  int tokens = 0;

  // In forward order: QKV, attention output, MLP up, MLP down, block after block.
  std::vector<LinearLayer> layers() const;
  double params() const { return 12.0 * hidden * hidden * blocks; }
  double flops_per_step() const { return 6.0 * params() * tokens; }
  // bf16 weights, float gradients, each layer's saved bf16 input, the QKV output, the last
  // layer's output, an output gradient and an input gradient of the widest layer.
  std::uint64_t memory_bytes() const;
};

// From --model-params (else kGpuDefaultBlocks blocks of kGpuDefaultHidden) and --tokens-per-gpu
// (else kGpuDefaultTokens): hidden kGpuDefaultHidden, or for models under one such block the
// hidden size (a multiple of kHiddenMultiple) of one block; blocks = params / (12 hidden^2),
// rounded, at least 1. InputError naming the flag when the model cannot be built.
TransformerShape transformer_shape(const RunConfig& config);

// InputError naming --model-params when the model and `extra_bytes` (the input batch, the GEMM
// workspace) do not fit in 90 % of `device_memory_bytes` (the rest is the CUDA context's, NCCL's
// and cuBLASLt's). Nothing is checked when the memory is unknown (0).
void check_transformer_memory(const TransformerShape& shape, std::uint64_t device_memory_bytes,
                              std::uint64_t extra_bytes);

} // namespace cb
