#include "workload/transformer_shape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.hpp"
#include "core/format.hpp"
#include "workload/workload_options.hpp"

namespace cb {
namespace {

std::string gib(double bytes) {
  return format_gib(bytes);
}

} // namespace

std::vector<LinearLayer> TransformerShape::layers() const {
  std::vector<LinearLayer> out;
  for (int b = 0; b < blocks; ++b) {
    out.push_back({hidden, 3 * hidden});
    out.push_back({hidden, hidden});
    out.push_back({hidden, 4 * hidden});
    out.push_back({4 * hidden, hidden});
  }
  return out;
}

std::uint64_t TransformerShape::memory_bytes() const {
  const auto h = static_cast<std::uint64_t>(hidden), t = static_cast<std::uint64_t>(tokens);
  const auto p = static_cast<std::uint64_t>(params());
  // Saved inputs per block: h (QKV) + h (output) + h (up) + 4h (down).
  const std::uint64_t activations = (7 * h * static_cast<std::uint64_t>(blocks) + 3 * h + h) * t;
  const std::uint64_t gradients_of_activations = (4 * h + 4 * h) * t;
  return 2 * p + 4 * p + 2 * (activations + gradients_of_activations);
}

TransformerShape transformer_shape(const RunConfig& config) {
  const double block_params = 12.0 * kGpuDefaultHidden * kGpuDefaultHidden;
  // The GPU's shape: its defaults whatever backend is asked (the host's is workload_shape).
  const double params = kModelParams.value(config, BackendKind::cuda);
  const double tokens = kTokensPerGpu.value(config, BackendKind::cuda);
  TransformerShape shape;
  if (params >= block_params) {
    shape.hidden = kGpuDefaultHidden;
  } else {
    const double h = std::floor(std::sqrt(params / 12) / kHiddenMultiple) * kHiddenMultiple;
    shape.hidden = static_cast<int>(std::max<double>(kHiddenMultiple, h));
  }
  const double blocks =
      std::max(1.0, std::round(params / (12.0 * shape.hidden * static_cast<double>(shape.hidden))));
  if (blocks > std::numeric_limits<int>::max() / 4) {
    throw InputError("--model-params: too many parameters to build as transformer layers of "
                     "hidden size " +
                     std::to_string(shape.hidden));
  }
  if (tokens > std::numeric_limits<int>::max()) {
    throw InputError("--tokens-per-gpu: at most 2^31 tokens per GPU per step");
  }
  shape.blocks = static_cast<int>(blocks);
  shape.tokens = static_cast<int>(std::llround(tokens));
  return shape;
}

void check_transformer_memory(const TransformerShape& shape, std::uint64_t device_memory_bytes,
                              std::uint64_t extra_bytes) {
  if (device_memory_bytes == 0)
    return;
  const double usable = 0.9 * static_cast<double>(device_memory_bytes);
  const double need = static_cast<double>(shape.memory_bytes()) + static_cast<double>(extra_bytes);
  if (need > usable) {
    throw InputError("--model-params: " + std::to_string(shape.blocks) +
                     " transformer layer(s) of hidden size " + std::to_string(shape.hidden) +
                     " with " + std::to_string(shape.tokens) + " tokens per GPU need " +
                     gib(need) + " of device memory per GPU; the smallest GPU here has " +
                     gib(static_cast<double>(device_memory_bytes)) + ", 90 % of it usable");
  }
}

} // namespace cb
