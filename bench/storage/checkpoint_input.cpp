// The checkpoint cases' checks before anything is written: the checkpoint's size, the block sizes,
// the host memory its shards need and the room for them in --storage-dir.
#include <unistd.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "core/units.hpp"
#include "storage/checkpoint_case.hpp"
#include "storage/checkpoint_plan.hpp"
#include "storage/storage_dir.hpp"
#include "workload/workload_options.hpp"

namespace cb {
namespace {

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
             : 0;
}

// The largest block the case writes and reads with: shards are whole blocks of it.
std::uint64_t largest_block(const std::string& case_name, const RunConfig& config,
                            std::uint64_t total) {
  std::uint64_t largest = kStorageChunkBytes;
  for (std::uint64_t block : storage_reads(case_name, config).blocks) {
    if (block == 0 || block % kStorageChunkBytes != 0) {
      throw InputError("--block-sizes: " + format_size(block) +
                       " is not a whole number of 4K chunks, which checkpoint shards are made of");
    }
    if (block > total) {
      throw InputError("--block-sizes: " + format_size(block) +
                       " is larger than the checkpoint of " + format_size(total) +
                       " (--checkpoint-bytes)");
    }
    largest = std::max(largest, block);
  }
  return largest;
}

// What this node's shard files need in the directory beyond what its files of ours already hold.
DirectoryDemand shard_room(const RunConfig& config, const std::vector<int>& node_ranks,
                           std::uint64_t peak_bytes, std::uint64_t file_bytes) {
  const bool is_default = !kStorageDir.given(config);
  const StorageDir dir(storage_dir_path(config), is_default);
  const std::set<int> mine(node_ranks.begin(), node_ranks.end());
  std::uint64_t held = 0;
  for (const std::string& name : dir.names()) {
    if (is_directory_probe_name(name))
      continue;
    const std::optional<int> rank = storage_file_rank(name);
    if (rank && !mine.count(*rank))
      continue; // another node's file, for it to check
    const EntryInfo e = dir.inspect(name);
    if (e.kind == FileKind::foreign)
      throw InputError(not_ours_message(dir, e));
    if (rank && name == checkpoint_file_name(*rank))
      held += e.size;
  }
  const std::uint64_t want = peak_bytes + node_ranks.size() * kStorageHeaderBytes;
  const std::uint64_t need = want > held ? want - held : 0;
  const std::optional<std::uint64_t> free = dir.free_bytes();
  if (free && need > *free) {
    throw InputError("--storage-dir: '" + dir.path() + "' needs " + approximate_size(need) +
                     " free for the checkpoint shards of " + std::to_string(node_ranks.size()) +
                     " rank(s), has " + approximate_size(*free) +
                     " (use --checkpoint-bytes or another directory)");
  }
  return {"--storage-dir", dir.path(), need, static_cast<long long>(node_ranks.size()), file_bytes};
}

} // namespace

std::uint64_t run_checkpoint_bytes(const RunConfig& config) {
  // The host's default model on every backend: a GPU's 1.6 G parameters would ask 22 GB of each
  // node's disk of a run that never named a model.
  return checkpoint_total_bytes(kCheckpointBytes.given(config).value_or(0),
                                kModelParams.value(config, BackendKind::host));
}

std::optional<DirectoryDemand>
CheckpointCase::check_input(const RunConfig& config, const std::vector<int>& node_ranks) const {
  const std::uint64_t total = run_checkpoint_bytes(config);
  const std::uint64_t unit =
      uses_files() ? largest_block(name(), config, total) : kStorageChunkBytes;
  const std::uint64_t peak = checkpoint_node_peak_bytes(total, node_ranks, unit);
  // Every rank holds its shard in memory (the state it saves, the memory it restores into); the
  // stage holds a snapshot beside it.
  const std::uint64_t memory = peak * (step_ == CheckpointStep::stage ? 2 : 1);
  if (const std::uint64_t have = physical_memory_bytes(); have > 0 && memory > have / 2) {
    throw InputError("--checkpoint-bytes: shards of a " + approximate_size(total) +
                     " checkpoint need " + approximate_size(memory) + " of host memory on " +
                     std::to_string(node_ranks.size()) +
                     " rank(s) of one node, more than half of its " + approximate_size(have));
  }
  if (!uses_files())
    return std::nullopt;
  const int highest =
      node_ranks.empty() ? 0 : *std::max_element(node_ranks.begin(), node_ranks.end());
  const std::uint64_t file_bytes =
      storage_file_total_bytes(checkpoint_shard_bytes(total, highest + 1, unit));
  return shard_room(config, node_ranks, peak, file_bytes);
}

} // namespace cb
