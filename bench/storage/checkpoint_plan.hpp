#pragma once
// The checkpoint cases' arithmetic (pure, unit-tested): how big the checkpoint is, how it is
// sharded over the ranks (as ZeRO/FSDP and torch.distributed.checkpoint shard it: every rank
// saves an equal part of the training state), and what a node must hold of it on disk and in
// memory at the worst GPU count of a sweep.
#include <cstdint>
#include <string>
#include <vector>

namespace cb {

// bf16 weights (2) + fp32 master weights (4) + Adam's two fp32 moments (8) per parameter: the
// state a mixed-precision Adam job checkpoints (MLPerf Storage sizes its checkpoints the same way).
inline constexpr double kCheckpointBytesPerParam = 14;
// Past this the figure is a typo, not a checkpoint (MLPerf Storage's largest, Llama 3 1T, is 18
// TB).
inline constexpr std::uint64_t kMaxCheckpointBytes = 1ull << 50;

// The checkpoint's bytes in all: `flag_bytes` (--checkpoint-bytes) when not 0, else 14 bytes per
// parameter of `model_params`, rounded up to whole 4 KiB chunks. InputError naming the flag when
// out of bounds.
std::uint64_t checkpoint_total_bytes(std::uint64_t flag_bytes, double model_params);

// Each rank's shard at `ranks` ranks: an equal part, rounded up to whole `unit_bytes` (the write
// and read block, itself whole 4 KiB chunks), so every shard is whole blocks and every rank moves
// the same bytes. The ranks together move at most ranks x unit_bytes more than `total`.
std::uint64_t checkpoint_shard_bytes(std::uint64_t total, int ranks, std::uint64_t unit_bytes);

// The most shard bytes the ranks of one node (world ranks, any order) hold at once at any GPU
// count of a sweep that runs ranks [0, k) at count k: the node's ranks below k times the shard at
// k, which is largest at k = the node's highest rank + 1 or below it.
std::uint64_t checkpoint_node_peak_bytes(std::uint64_t total, const std::vector<int>& node_ranks,
                                         std::uint64_t unit_bytes);

// "clusterbench-ckpt<R>.dat" (R = world rank): one of the storage family's own names.
std::string checkpoint_file_name(int rank);
// The seed of rank R's shard pattern (distinct from its read file's).
std::uint64_t checkpoint_seed(int rank);

} // namespace cb
