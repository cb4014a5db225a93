#pragma once
// The storage reads: each rank reads its own file under --storage-dir, block by block, all ranks at
// once. One operation = one pass over the file; aggregate = Σ bytes / the slowest rank's time,
// each rank's own rate in per_rank, and elbencho's first-done / last-done rates in metrics so a
// slow reader shows. Every block is verified after timing, outside the timed passes.
//
// Outcomes: a checksum mismatch is wrong data: check = fail, status stays ok, the run exits 1. A
// read error is a failed device: status = failed (and check = fail), the run exits 3. Either way
// the other records are kept.
#include <string>
#include <vector>

#include "runtime/case.hpp"

namespace cb {

class StorageReadCase : public BenchmarkCase {
public:
  explicit StorageReadCase(bool random) : random_(random) {}
  ~StorageReadCase() override; // --cleanup: removes the files this case used, if still ours
  std::string suite() const override { return "storage"; }
  std::string name() const override { return random_ ? "rand_read" : "seq_read"; }
  // One instance per block size. The first call (every rank, before anything runs) validates the
  // options and the directory: exit 2 on a bad one.
  std::vector<nlohmann::json> instances(const RunConfig& config) const override;
  std::vector<Record> run(const CaseContext& ctx, const nlohmann::json& params) override;

private:
  bool random_;
  mutable bool checked_ = false;
  bool cleanup_ = false;
  std::string dir_path_;
  std::vector<std::string> used_files_;
};

} // namespace cb
