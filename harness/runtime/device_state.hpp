#pragma once
// Reading the device-state snapshots a backend takes before and after a record (Backend::state):
// did the device hold its clocks down while the record was measured?
//
// Where the snapshots carry cumulative throttle time per cause ("throttle_time_ns", NVML's
// violation counters), the answer is the growth of those counters across the record, said with
// how long it lasted out of the time between the snapshots ("throttle_read_at_us"): the reason
// bit read at one instant cannot tell a cap that held the whole record from one that ended in
// its first milliseconds, or one that still shows just after the record before. Hardware
// slowdowns (hw_* reasons read after the record) are added, as no counter is sure to cover them.
// Without counters, the instantaneous reasons read after the record ("throttled",
// "throttle_reasons") are the answer.
#include <nlohmann/json.hpp>
#include <string>

namespace cb {

struct Throttling {
  bool throttled = false;
  // What to say in the record's reason, e.g. "power cap 412 ms of 2.1 s" or "sw_power_cap".
  std::string causes;
  // Per cause, milliseconds throttled during the record (counters only), for extra.throttled_ms.
  nlohmann::json milliseconds = nlohmann::json::object();
};

Throttling throttling_between(const nlohmann::json& before, const nlohmann::json& after);

} // namespace cb
