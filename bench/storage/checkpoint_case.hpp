#pragma once
// The checkpoint cases: what saving and restoring a training job's state costs at each GPU count,
// measured as MLPerf Storage's checkpointing workload measures it. The checkpoint
// (--checkpoint-bytes, default 14 bytes per --model-params) is sharded equally over the ranks,
// as ZeRO/FSDP and torch.distributed.checkpoint shard it; every rank moves its shard at once.
// The state is in host memory, or in device memory on a backend that registers a device shard
// (storage/checkpoint_memory.hpp: cuda's is GPU memory through pinned staging); extra.memory says.
//   checkpoint_write  the save: each rank's shard from memory to its file, fsync'd, verified
//   checkpoint_read   the restore: the file's pages dropped (or O_DIRECT), read back into
//                     memory, verified there (different bytes fail the record as wrong data)
//   checkpoint_stage  the blocking part of an asynchronous save: the snapshot into host memory
// Metrics: time_us the slowest rank's (the checkpoint is done when the last shard is), gbps the
// aggregate (Σ shards / that time), lowest_rank_gbps the slowest rank's own rate. The family's
// safety rules hold (storage_dir.hpp): shards are files of its own ("clusterbench-ckpt<R>.dat")
// in --storage-dir, room is checked first, --cleanup removes only them.
#include <string>
#include <vector>

#include "runtime/case.hpp"

namespace cb {

enum class CheckpointStep { write, read, stage };

class CheckpointCase : public BenchmarkCase {
public:
  explicit CheckpointCase(CheckpointStep step)
      : BenchmarkCase("storage", step_name(step)), step_(step) {}
  ~CheckpointCase() override; // --cleanup: removes the shards this case used, if still ours
  // The checkpoint's size, block sizes, host memory and the directory's room for this node's
  // shards at its worst GPU count: exit 2 on a bad one, before anything is written.
  std::optional<DirectoryDemand> check_input(const RunConfig& config,
                                             const std::vector<int>& node_ranks) const override;
  std::vector<Axis> axes() const override;
  // One instance per block size, with the checkpoint's bytes in all and the I/O mode.
  std::vector<nlohmann::json> instances(const RunConfig& config) const override;
  void run(CaseRun& run, const nlohmann::json& params) override;

private:
  static std::string step_name(CheckpointStep step);
  bool uses_files() const { return step_ != CheckpointStep::stage; }

  CheckpointStep step_;
  bool cleanup_ = false;
  std::string dir_path_;
  std::vector<std::string> used_files_;
};

// The checkpoint's bytes in all for this run (--checkpoint-bytes, else 14 per model parameter,
// the workload family's default model when --model-params is not given).
std::uint64_t run_checkpoint_bytes(const RunConfig& config);

} // namespace cb
