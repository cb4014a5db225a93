// The storage family: files read from each node's storage, and a training job's checkpoints.
#include <algorithm>

#include "planning/hardware_model.hpp"
#include "planning/time_model.hpp"
#include "results/suite_names.hpp"
#include "runtime/family.hpp"
#include "storage/storage_options.hpp"

namespace cb {
namespace {

class StorageFamily final : public Family {
public:
  std::string suite() const override { return suite_names::kStorage; }
  int order() const override { return 3; }
  std::string report_sentence() const override {
    return "aggregate read throughput, all bytes over the slowest reader's time; E(N) = X(N) / "
           "(N · X(1)).";
  }
  bool draws_plot(const std::string& stem) const override {
    return Family::draws_plot(stem) || stem == "storage_readers";
  }

  std::vector<const OptionDeclaration*> options() const override {
    return {&kStorageDir, &kFileBytes, &kBuffered, &kCheckpointBytes, &kCleanup};
  }

  // One read of the rank's bytes, the node's storage bandwidth shared by its ranks; random reads
  // add one latency per block (divided by the queue depth); read_to_gpu adds the copy to the GPU.
  // The checkpoint's stage is a copy in host memory; its save and restore move each node's shards
  // through its storage, as a read does.
  std::optional<double> operation_seconds(const std::string& name, const nlohmann::json& params,
                                          const PhaseShape& shape,
                                          const HardwareModel& m) const override {
    if (name == "checkpoint_stage") // a copy: read and written, counted as STREAM's copy
      return m.alpha_launch_s + 2 * checkpoint_shard(params, shape) / m.memory_bw;
    if (name == "checkpoint_write" || name == "checkpoint_read")
      return checkpoint_shard(params, shape) * shape.ranks_per_node / m.checkpoint_bw_per_node;
    if (name != "seq_read" && name != "rand_read" && name != "read_to_gpu")
      return std::nullopt;
    const double bytes = param_number(params, "bytes", 64 << 20);
    double s = bytes * shape.ranks_per_node / m.storage_bw_per_node;
    if (name == "rand_read") {
      const double blocks = bytes / std::max(1.0, param_number(params, "block_bytes", 1 << 20));
      s += blocks * m.storage_latency_s / std::max(1.0, param_number(params, "queue_depth", 1));
    }
    if (name == "read_to_gpu")
      s += bytes / m.host_link_bw;
    return s;
  }

  // The file written the first time (its bytes at the node's storage bandwidth); a checkpoint's
  // state filled with its pattern; the stage's state, its snapshot's first touch and the check of
  // what landed there (three passes over the shard: 1.2-1.4 s for 235 MB on one host rank).
  double setup_seconds(const std::string& name, const nlohmann::json& params,
                       const PhaseShape& shape, const HardwareModel& m) const override {
    const double fill_bw = shape.memory_reused && m.checkpoint_fill_reused_bw > 0
                               ? m.checkpoint_fill_reused_bw
                               : m.checkpoint_fill_bw;
    const double fill = fill_bw > 0 ? checkpoint_shard(params, shape) / fill_bw : 0;
    if (name == "checkpoint_stage")
      return 3 * fill;
    if (m.storage_bw_per_node <= 0)
      return 0;
    if (name.rfind("checkpoint_", 0) == 0) {
      // The node's shards written once (the restore's checkpoint, the save's target); the save's
      // last checkpoint read back from storage to check it.
      const double node_pass =
          checkpoint_shard(params, shape) * shape.ranks_per_node / m.checkpoint_bw_per_node;
      return m.storage_setup_s + fill + (name == "checkpoint_write" ? 2 : 1) * node_pass;
    }
    return m.storage_setup_s +
           param_number(params, "file_bytes", param_number(params, "bytes", 0)) *
               shape.ranks_per_node / m.storage_bw_per_node;
  }

private:
  // A checkpoint shard's bytes on each rank: the checkpoint shared equally
  // (storage/checkpoint_plan).
  static double checkpoint_shard(const nlohmann::json& params, const PhaseShape& shape) {
    return param_number(params, "checkpoint_bytes", 0) / std::max(1, shape.ranks);
  }
};

} // namespace

CB_REGISTER_FAMILY(StorageFamily);

} // namespace cb
