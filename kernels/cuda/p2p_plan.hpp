#pragma once
// The layout and schedule of link measurements, as data (host code, unit-tested):
// - which device pairs a P2P matrix measures, uni- or bidirectional;
// - the matrix as the results file holds it (rows = source, columns = destination, null where a
//   pair was not measured, e.g. the diagonal or pairs without peer access);
// - nvbandwidth's timing schedule: every stream held behind a spin kernel on a host flag, warm-up
//   copies, a start event, the timed copies, a stop event, then the host releases them together.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb::cuda {

struct DevicePair {
  int src = 0;
  int dst = 0;
  bool operator==(const DevicePair&) const = default;
};

// Unidirectional: every ordered pair (i, j), i != j, row by row. Bidirectional: each unordered
// pair once (i < j); both directions run at the same time.
std::vector<DevicePair> p2p_pairs(int devices, bool bidirectional);

// values[{src, dst}] = GB/s (bidirectional pairs fill both cells with the pair's figure).
nlohmann::json link_matrix_json(int devices, const std::map<std::pair<int, int>, double>& values,
                                bool bidirectional);

enum class StepKind { spin, copy, record_start, record_stop, release };
struct ScheduleStep {
  StepKind kind;
  int stream = -1;    // -1 for release (all streams at once)
  bool timed = false; // copies between the events
  bool operator==(const ScheduleStep&) const = default;
};

// The enqueue order for `streams` streams: per stream a spin, `warmup` untimed copies, the start
// event, `copies` timed copies and the stop event; then one release.
std::vector<ScheduleStep> held_copy_schedule(int streams, int warmup, int copies);

} // namespace cb::cuda
