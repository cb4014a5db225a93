#pragma once
// The storage reads: each rank reads its own file under --storage-dir, block by block, all ranks at
// once. One operation = one pass over the file; aggregate = Σ bytes / the slowest rank's time,
// each rank's own rate in per_rank, and elbencho's first-done / last-done rates in metrics so a
// slow reader shows. Every block is verified after timing, outside the timed passes.
//
// Outcomes: a checksum mismatch is wrong data: check = fail, status stays ok, the run exits 1. A
// read error mid-run means the data did not arrive: status = failed and check = fail, the run
// exits 1 as well. A case that cannot be set up (no room left, a file that cannot be opened) is
// status = failed with check = skipped, and the run exits 3. Either way the other records are kept.
#include <string>
#include <vector>

#include "runtime/case.hpp"
#include "storage/storage_dir.hpp"

namespace cb {

class StorageReadCase : public BenchmarkCase {
public:
  explicit StorageReadCase(bool random)
      : BenchmarkCase("storage", random ? "rand_read" : "seq_read"), random_(random) {}
  ~StorageReadCase() override; // --cleanup: removes the files this case used, if still ours
  // The options and the directory, with room for `local_ranks` files: exit 2 on a bad one.
  std::optional<DirectoryDemand> check_input(const RunConfig& config,
                                             const std::vector<int>& node_ranks) const override;
  std::vector<Axis> axes() const override {
    return {storage_block_axis(), storage_queue_depth_axis()};
  }
  // One instance per block size and queue depth, with the file size and I/O mode it reads with.
  std::vector<nlohmann::json> instances(const RunConfig& config) const override;
  void run(CaseRun& run, const nlohmann::json& params) override;

private:
  bool random_;
  bool cleanup_ = false;
  std::string dir_path_;
  std::vector<std::string> used_files_;
};

} // namespace cb
