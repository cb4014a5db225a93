#include "runtime/device_state.hpp"

#include <cmath>
#include <string>

#include "core/format.hpp"

namespace cb {
namespace {

// How a cause is named in a record's reason.
std::string cause_name(const std::string& key) {
  if (key == "power")
    return "power cap";
  if (key == "board_limit")
    return "board limit";
  return key;
}

} // namespace

Throttling throttling_between(const nlohmann::json& before, const nlohmann::json& after) {
  Throttling t;
  const auto counters_before = before.find("throttle_time_ns");
  const auto counters_after = after.find("throttle_time_ns");
  if (counters_before != before.end() && counters_after != after.end() &&
      counters_before->is_object() && counters_after->is_object() &&
      !counters_after->empty()) {
    for (const auto& [cause, value] : counters_after->items()) {
      if (!value.is_number() || !counters_before->contains(cause) ||
          !(*counters_before)[cause].is_number()) {
        continue;
      }
      const double grew_ns = value.get<double>() - (*counters_before)[cause].get<double>();
      if (grew_ns <= 0)
        continue;
      const double ms = grew_ns / 1e6;
      t.throttled = true;
      t.milliseconds[cause] = ms;
      t.causes += (t.causes.empty() ? "" : ", ") + cause_name(cause) + " " +
                  format_fixed(std::ceil(ms), 0) + " ms";
    }
    const double window_us =
        after.value("throttle_read_at_us", 0.0) - before.value("throttle_read_at_us", 0.0);
    if (t.throttled && window_us > 0) {
      t.causes += " of " + format_fixed(window_us / 1e6, 1) + " s";
    }
    for (const auto& r : after.value("throttle_reasons", nlohmann::json::array())) {
      if (r.is_string() && r.get<std::string>().rfind("hw_", 0) == 0) {
        t.throttled = true;
        t.causes += (t.causes.empty() ? "" : ", ") + r.get<std::string>();
      }
    }
    return t;
  }
  t.throttled = after.value("throttled", false);
  if (t.throttled) {
    for (const auto& r : after.value("throttle_reasons", nlohmann::json::array())) {
      if (r.is_string())
        t.causes += (t.causes.empty() ? "" : ",") + r.get<std::string>();
    }
  }
  return t;
}

} // namespace cb
