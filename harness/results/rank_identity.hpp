#pragma once
// Where each rank of a run ran — its host, node, device index and UUID — as the run header says
// once (run.hosts[].devices[], each with its world rank). A record's per_rank entries would
// otherwise repeat it in every record: at 1,024 nodes x 8 GPUs and a few hundred records that is
// hundreds of megabytes of the same names. Writers leave out of each entry what the header of the
// file they write already says for that rank, and tag the record with that header's run id
// (per_rank_run); loaders give such a record the header (Record::identities) where the tag is
// their header's, and rank_field() reads an entry's fields through it. A record copied into
// another run's file keeps its tag and is not given that file's hosts: its entries then lack the
// fields rather than name the wrong machines. Written into another run's file, a record read with
// its header has its entries made whole again first.
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "results/record.hpp"

namespace cb {

class RankIdentities {
public:
  RankIdentities() = default;
  // A header without a run id, devices without a whole-number rank, hosts without a name, and
  // names longer than a host or GPU UUID can be are passed over (those ranks' entries are written
  // and read whole): restoring copies these strings into every entry, so their size is held.
  explicit RankIdentities(const nlohmann::json& run);
  bool empty() const { return by_rank_.empty(); }
  const std::string& run_id() const { return run_id_; }
  // `entry` without the fields (host, node, device, uuid) that equal the header's for its rank;
  // false when it has none to leave out (the caller writes the entry as it is).
  bool strip(const nlohmann::json& entry, nlohmann::json& out) const;
  // Adds to `entry` the identity fields it lacks, from the header's entry for its rank.
  void restore(nlohmann::json& entry) const;
  // Restores every entry of a record written against this header (its per_rank_run is this
  // run's id; the tag is then cleared), and of no other record. A record with more entries than
  // the header has ranks is left as it is.
  void restore(Record& record) const;
  // Whether the entries of `record` were written against this header (its tag is this run's id,
  // and it has no more entries than the header has ranks).
  bool speaks_for(const Record& record) const;
  // The header's `key` for the rank of `entry`; nullptr when the header does not say it.
  const nlohmann::json* field(const nlohmann::json& entry, const std::string& key) const;

private:
  // The header's fields for the rank of `entry`; nullptr when it has none.
  const nlohmann::json* identity_of(const nlohmann::json& entry) const;

  std::string run_id_;
  // The fields as per_rank entries spell them.
  std::unordered_map<long long, nlohmann::json> by_rank_;
};

// A rank's `key` (host, node, device, uuid or any figure) in `entry`, one of record.per_rank:
// the entry's own, else the header's the record was read with, else null.
nlohmann::json rank_field(const Record& record, const nlohmann::json& entry,
                          const std::string& key);
// `entry`, one of record.per_rank, with the fields the header says of its rank added where it
// leaves them out (a copy: for the one entry a caller names, not for every rank).
nlohmann::json whole_entry(const Record& record, const nlohmann::json& entry);

inline constexpr std::size_t kMaxIdentityHostBytes = 255; // a DNS name
inline constexpr std::size_t kMaxIdentityUuidBytes = 128; // a GPU UUID is 40

} // namespace cb
