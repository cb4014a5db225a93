#include "storage/checkpoint_plan.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/units.hpp"
#include "storage/block_format.hpp"

namespace cb {

std::uint64_t checkpoint_total_bytes(std::uint64_t flag_bytes, double model_params) {
  const std::string flag = flag_bytes != 0 ? "--checkpoint-bytes" : "--model-params";
  const double bytes =
      flag_bytes != 0 ? static_cast<double>(flag_bytes) : model_params * kCheckpointBytesPerParam;
  if (!std::isfinite(bytes) || bytes < 1) {
    throw InputError(flag + ": the checkpoint must hold at least one byte");
  }
  if (bytes > static_cast<double>(kMaxCheckpointBytes)) {
    throw InputError(flag + ": a checkpoint past " + approximate_size(kMaxCheckpointBytes) +
                     " is not one a job writes (MLPerf Storage's largest, Llama 3 1T, is 18 TB)");
  }
  const auto whole = static_cast<std::uint64_t>(std::ceil(bytes));
  return (whole + kStorageChunkBytes - 1) / kStorageChunkBytes * kStorageChunkBytes;
}

std::uint64_t checkpoint_shard_bytes(std::uint64_t total, int ranks, std::uint64_t unit_bytes) {
  const std::uint64_t unit = std::max<std::uint64_t>(unit_bytes, 1);
  const std::uint64_t n = static_cast<std::uint64_t>(std::max(ranks, 1));
  const std::uint64_t per_rank = (total + n - 1) / n;
  return std::max<std::uint64_t>(1, (per_rank + unit - 1) / unit) * unit;
}

std::uint64_t checkpoint_node_peak_bytes(std::uint64_t total, const std::vector<int>& node_ranks,
                                         std::uint64_t unit_bytes) {
  if (node_ranks.empty())
    return 0;
  std::vector<int> ranks = node_ranks;
  std::sort(ranks.begin(), ranks.end());
  // At counts k in (ranks[i], ranks[i + 1]] the node's ranks[0..i] take part; the shard only
  // shrinks as k grows, so the first of those counts holds the most. Past the highest rank every
  // rank of the node takes part and the shards go on shrinking.
  std::uint64_t peak = 0;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const std::uint64_t shard = checkpoint_shard_bytes(total, ranks[i] + 1, unit_bytes);
    peak = std::max(peak, (i + 1) * shard);
  }
  return peak;
}

std::string checkpoint_file_name(int rank) {
  return "clusterbench-ckpt" + std::to_string(rank) + ".dat";
}

std::uint64_t checkpoint_seed(int rank) {
  return 0xc2b2ae3d27d4eb4full * static_cast<std::uint64_t>(rank + 1) + 0x27d4eb2f165667c5ull;
}

} // namespace cb
