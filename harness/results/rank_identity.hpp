#pragma once
// Where each rank of a run ran — its host, node, device index and UUID — as the run header says
// once (run.hosts[].devices[], each with its world rank). A record's per_rank entries would
// otherwise repeat it in every record: at 1,024 nodes x 8 GPUs and a few hundred records that is
// hundreds of megabytes of the same names. Writers leave out of each entry what the header of the
// file they write already says for that rank; loaders put it back, so that every reader of a
// record sees whole entries, and records merged from several runs keep their own.
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace cb {

class RankIdentities {
public:
  RankIdentities() = default;
  // Devices without a whole-number rank, or hosts without a name, are passed over: a header
  // that says nothing usable gives an empty table, and entries are written and read whole.
  explicit RankIdentities(const nlohmann::json& run);
  bool empty() const { return by_rank_.empty(); }
  // `entry` without the fields (host, node, device, uuid) that equal the header's for its rank;
  // false when it has none to leave out (the caller writes the entry as it is).
  bool strip(const nlohmann::json& entry, nlohmann::json& out) const;
  // Adds to `entry` the identity fields it lacks, from the header's entry for its rank.
  void restore(nlohmann::json& entry) const;

private:
  // The fields as per_rank entries spell them (keys in the entry's order).
  std::unordered_map<long long, nlohmann::json> by_rank_;
};

} // namespace cb
