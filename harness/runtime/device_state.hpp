#pragma once
// Reading the device-state snapshots a backend takes before and after a record (Backend::state):
// did the device hold its clocks down while the record was measured?
//
// Where the snapshots carry cumulative throttle time per cause ("throttle_time_ns", NVML's
// violation counters), the answer is the growth of those counters across the record: exact, and
// blind to a reason bit still set from the record before (a power cap lingers for a moment after
// a GEMM, and a host-to-device copy measured then is not slowed by it). Without counters, the
// instantaneous reasons read after the record ("throttled", "throttle_reasons") are the answer.
#include <nlohmann/json.hpp>
#include <string>

namespace cb {

struct Throttling {
  bool throttled = false;
  // What to say in the record's reason, e.g. "power cap 412 ms" or "sw_power_cap".
  std::string causes;
  // Per cause, milliseconds throttled during the record (counters only), for extra.throttled_ms.
  nlohmann::json milliseconds = nlohmann::json::object();
};

Throttling throttling_between(const nlohmann::json& before, const nlohmann::json& after);

} // namespace cb
