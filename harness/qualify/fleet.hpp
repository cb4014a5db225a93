#pragma once
// Fleet rules: within one run, every GPU, link and node is compared with its peers by median and
// median absolute deviation (MAD), so a bad part shows up even when no data sheet figure exists.
//
// Per record, the per_rank entries are the fleet (one figure per GPU); per_rank entries grouped
// by host give the node fleet (mean per GPU of each node); extra.matrix (rows = source,
// columns = destination; one fleet per tier of extra.tier_matrix, so inter-node links are not
// compared with NVLink) gives the link fleet. A member is an outlier when its robust z,
// 0.6745 (x - median) / MAD, is below the spec's threshold (-3.5), or when it is under 0.90 x the
// fleet median (mirrored for latencies, where high is bad). With MAD = 0 the robust z is
// undefined and the fraction-of-median rule decides alone.
//
// A collective record that names its straggler (record.straggler: the rank the others waited
// for, runtime/straggler.hpp) gives an outlier of kind `straggler`. It warns and never fails the
// fleet: a late arrival can come from a host's scheduling as much as from its hardware, and what
// the wait costs is judged by the collective's own checks.
#include <optional>
#include <string>
#include <vector>

#include "qualify/spec.hpp"
#include "results/record.hpp"

namespace cb {

enum class FleetKind { gpu, link, node, straggler };
std::string_view fleet_kind_name(FleetKind k);

// Who a fleet member is. Unknown fields stay empty / -1.
struct FleetMember {
  std::string host;
  // The GPU as nvidia-smi numbers it (its NVML index) where the run recorded one, else the
  // backend's device ordinal: with one visible GPU per rank every CUDA ordinal is 0.
  int device = -1;
  int rank = -1;
  std::string uuid;
  std::string pci_bus_id; // "00000000:1B:00.0" where the run recorded it: the board to pull
};

struct Outlier {
  std::size_t record_index = 0;
  std::string record; // describe_record()
  std::string metric;
  FleetKind kind = FleetKind::gpu;
  FleetMember who;
  FleetMember to; // the destination, for a link
  double value = 0;
  double fleet_median = 0;
  std::optional<double> robust_z; // absent when MAD = 0
  std::size_t fleet_size = 0;
  bool by_robust_z = false;
  bool by_fraction = false;
  // Named by the pair tests' second pass (extra.second_pass of links pair_bw / pair_latency):
  // value is the member's retest against known-good partners, fleet_median the tier's reference
  // pair (median for bandwidth, lowest for latency), fleet_size the members of the tier.
  bool by_second_pass = false;
  // The member's performance relative to the fleet median (below 1 is worse), whichever way the
  // metric points; for a straggler, its own time / the others' median.
  double ratio = 1;
  // A straggler: value and fleet_median are its own and the others' median time (time_us);
  // shortest_share how often its own time was the shortest. It warns only.
  bool by_straggler = false;
  double shortest_share = 0;
  bool warns_only() const { return by_straggler; }
};

// A part named by one or more outliers: a GPU, a node, a link, or a GPU at the end of several
// slow links.
struct Suspect {
  FleetKind kind = FleetKind::gpu;
  FleetMember who;
  FleetMember to;
  int outliers = 0;       // outlier findings that name it
  double worst_ratio = 1; // its worst ratio to a fleet median
  bool via_links = false; // a GPU named because several of its links are slow
  std::string label;
};

// What a pair test's second pass could not judge, though it names no bad part: a tier that is not
// uniform (pairs better than the reference beyond the tolerance: a fast minority, or a slow
// majority the rule cannot see), suspect pairs left unresolved (no known-good partner, or
// beyond the retest cap), or a tier split in groups (members slow with every good partner but
// fast with one another: a switch between them and the rest, not the members). It warns: the
// operator learns the fleet was not judged whole, and a spec's figure for the case judges the
// majority.
enum class FleetNoteKind { not_uniform, unresolved, split };
std::string_view fleet_note_kind_name(FleetNoteKind k);

struct FleetNote {
  std::size_t record_index = 0;
  std::string record; // describe_record()
  FleetNoteKind kind = FleetNoteKind::not_uniform;
  std::size_t pairs = 0;   // the better pairs, the unresolved ones, or those across a split
  std::size_t members = 0; // the tier's members
  // not_uniform: the members of the better pairs; split: the groups' members (at most kNoteHosts).
  std::vector<std::string> hosts;
  std::size_t hosts_total = 0; // before the cap
  std::size_t groups = 0;      // split: how many groups
  bool beyond_cap = false;     // unresolved: the retest cap left some out
  static constexpr std::size_t kNoteHosts = 16;
};

struct FleetReport {
  int fleets_examined = 0;
  std::vector<Outlier> outliers; // stragglers among them, which warn only
  std::vector<Suspect> suspects; // most often named first; from the outliers that fail
  std::vector<FleetNote> notes;  // warn only
  // Outliers that fail the fleet, and those that only warn (stragglers).
  std::size_t failing() const;
  std::size_t warnings() const { return outliers.size() - failing(); }
  std::size_t note_warnings() const { return notes.size(); }
};

// The robust z of x; nullopt when MAD is 0.
std::optional<double> robust_z(double x, double median, double mad);

// The rules applied to one fleet's figures.
struct OutlierFlags {
  double median = 0;
  double mad = 0;
  std::vector<std::optional<double>> robust_z;
  std::vector<bool> by_robust_z;
  std::vector<bool> by_fraction;
  bool any(std::size_t i) const { return by_robust_z[i] || by_fraction[i]; }
};
OutlierFlags flag_outliers(const std::vector<double>& values, const FleetRules& rules,
                           bool lower_is_better);

// Who `entry`, one of r.per_rank, is: its own fields, else those the run's header says of its
// rank (results/rank_identity.hpp).
FleetMember fleet_member_of(const Record& r, const nlohmann::json& entry);

// The metric a record's per-rank figures are compared by: one the record reports and every entry
// has; "" when none.
std::string per_rank_metric(const Record& r);

FleetReport analyze_fleet(const ResultsFile& results, const FleetRules& rules);

// "host n1 GPU 3 (GPU-1234)", "node n2", "host n1 GPU 2 -> GPU 6", "rank 5 on host n2 GPU 1".
std::string member_label(FleetKind kind, const FleetMember& who, const FleetMember& to = {});

} // namespace cb
