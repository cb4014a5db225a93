#include "workload/workload_shape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/units.hpp"
#include "workload/workload_options.hpp"

namespace cb {
namespace {

constexpr std::uint64_t kChunk = 4096;

std::uint64_t round_up(std::uint64_t v, std::uint64_t to) {
  return (v + to - 1) / to * to;
}

std::string gib(std::uint64_t bytes) {
  return format_gib(static_cast<double>(bytes));
}

} // namespace

std::uint64_t WorkloadShape::memory_bytes() const {
  const std::uint64_t activations = static_cast<std::uint64_t>(tokens) * width;
  return (2 * layer_elements() * layers + (layers + 4) * activations) * sizeof(float);
}

WorkloadShape workload_shape(const RunConfig& config) {
  // The host's shape: its defaults whatever backend is asked (the GPU's is transformer_shape).
  const double params = kModelParams.value(config, BackendKind::host);
  const double tokens = kTokensPerGpu.value(config, BackendKind::host);
  WorkloadShape shape;
  const double wide = static_cast<double>(kMaxWidth) * kMaxWidth;
  if (params >= 4 * wide) {
    shape.width = kMaxWidth;
  } else {
    const double w = std::floor(std::sqrt(params / 4) / 64) * 64;
    shape.width = static_cast<int>(std::max(64.0, w));
  }
  const double layers =
      std::max(1.0, std::round(params / (static_cast<double>(shape.width) * shape.width)));
  if (layers > std::numeric_limits<int>::max()) {
    throw InputError("--model-params: too many parameters to build as layers of " +
                     std::to_string(shape.width));
  }
  if (tokens > std::numeric_limits<int>::max()) {
    throw InputError("--tokens-per-gpu: at most 2^31 tokens per GPU per step");
  }
  shape.layers = static_cast<int>(layers);
  shape.tokens = static_cast<int>(std::llround(tokens));
  return shape;
}

void check_workload_memory(const WorkloadShape& shape, int local_ranks, std::uint64_t memory_bytes,
                           std::uint64_t input_ring_bytes) {
  if (memory_bytes == 0)
    return; // unknown: nothing to hold the model against
  const double ranks = std::max(1, local_ranks);
  const double usable = 0.75 * static_cast<double>(memory_bytes);
  const double model = static_cast<double>(shape.memory_bytes());
  const std::string here = std::to_string(std::max(1, local_ranks)) +
                           " rank(s) here; this node has " + gib(memory_bytes) +
                           " of memory, 3/4 of it usable";
  if (model * ranks > usable) {
    throw InputError("--model-params: " + std::to_string(shape.layers) + " layers of " +
                     std::to_string(shape.width) + "x" + std::to_string(shape.width) + " with " +
                     std::to_string(shape.tokens) + " tokens need " +
                     gib(static_cast<std::uint64_t>(model)) + " per rank, " + here);
  }
  const double ring = static_cast<double>(input_ring_bytes);
  if ((model + ring) * ranks > usable) {
    throw InputError("--input-bytes-per-step: the --prefetch ring of input batches needs " +
                     gib(input_ring_bytes) + " per rank beside the model's " +
                     gib(static_cast<std::uint64_t>(model)) + ", " + here);
  }
}

void check_input_ring_memory(int local_ranks, std::uint64_t memory_bytes,
                             std::uint64_t input_ring_bytes) {
  if (memory_bytes == 0 || input_ring_bytes == 0)
    return;
  const double ranks = std::max(1, local_ranks);
  if (static_cast<double>(input_ring_bytes) * ranks > 0.75 * static_cast<double>(memory_bytes)) {
    throw InputError("--input-bytes-per-step: the pinned --prefetch ring of input batches needs " +
                     gib(input_ring_bytes) + " of host memory per rank, " +
                     std::to_string(std::max(1, local_ranks)) + " rank(s) here; this node has " +
                     gib(memory_bytes) + ", 3/4 of it usable");
  }
}

std::uint64_t batch_block_bytes(std::uint64_t input_bytes_per_step, std::uint64_t block_bytes) {
  if (input_bytes_per_step == 0)
    return 0;
  const std::uint64_t block = std::max<std::uint64_t>(kChunk, round_up(block_bytes, kChunk));
  return std::min(block, round_up(input_bytes_per_step, kChunk));
}

std::uint64_t batch_bytes(std::uint64_t input_bytes_per_step, std::uint64_t block_bytes) {
  if (input_bytes_per_step == 0)
    return 0;
  return round_up(input_bytes_per_step, batch_block_bytes(input_bytes_per_step, block_bytes));
}

std::uint64_t workload_file_bytes(std::uint64_t storage_file_bytes, std::uint64_t batch) {
  if (batch == 0)
    return 0;
  return std::max(storage_file_bytes, batch);
}

} // namespace cb
