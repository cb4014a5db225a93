#include <gtest/gtest.h>

#include "runtime/device_state.hpp"

using namespace cb;
using nlohmann::json;

TEST(DeviceState, CounterGrowthDuringTheRecordMarksItWithTheTimePerCause) {
  const json before = {{"throttled", false},
                       {"throttle_time_ns", {{"power", 1'000'000'000}, {"thermal", 5}}},
                       {"throttle_read_at_us", 5'000'000}};
  const json after = {{"throttled", true},
                      {"throttle_reasons", {"sw_power_cap"}},
                      {"throttle_time_ns", {{"power", 1'411'200'000}, {"thermal", 5}}},
                      {"throttle_read_at_us", 7'100'000}};
  const Throttling t = throttling_between(before, after);
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(t.causes, "power cap 412 ms of 2.1 s");
  EXPECT_NEAR(t.milliseconds.at("power").get<double>(), 411.2, 1e-9);
  EXPECT_FALSE(t.milliseconds.contains("thermal")); // did not grow
}

TEST(DeviceState, AReasonBitReadAfterTheRecordDoesNotMarkItWhenNoCounterGrew) {
  // A power cap still flagged just after a GEMM, while a copy that does not grow the counter runs.
  const json before = {{"throttled", true},
                       {"throttle_reasons", {"sw_power_cap"}},
                       {"throttle_time_ns", {{"power", 7'000'000}}}};
  const json after = before;
  const Throttling t = throttling_between(before, after);
  EXPECT_FALSE(t.throttled);
  EXPECT_TRUE(t.causes.empty());
  EXPECT_TRUE(t.milliseconds.empty());
}

TEST(DeviceState, WithoutCountersTheReasonsReadAfterTheRecordDecide) {
  const json after = {{"throttled", true}, {"throttle_reasons", {"sw_power_cap", "hw_slowdown"}}};
  Throttling t = throttling_between(json::object(), after);
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(t.causes, "sw_power_cap,hw_slowdown");
  t = throttling_between(json::object(), {{"throttled", false}, {"throttle_reasons", {"gpu_idle"}}});
  EXPECT_FALSE(t.throttled);
  // Counters on one side only (NVML went away mid-run): fall back, never subtract from nothing.
  t = throttling_between({{"throttle_time_ns", {{"power", 1}}}}, {{"throttled", false}});
  EXPECT_FALSE(t.throttled);
}

TEST(DeviceState, HostBackendStateSaysNothing) {
  const Throttling t = throttling_between(json::object(), json::object());
  EXPECT_FALSE(t.throttled);
  EXPECT_TRUE(t.causes.empty());
}

TEST(DeviceState, SeveralCausesAreListedAndACounterThatWentBackIsIgnored) {
  const json before = {{"throttle_time_ns", {{"power", 0}, {"thermal", 0}, {"board_limit", 9}}}};
  const json after = {{"throttle_time_ns", {{"power", 2'000'000}, {"thermal", 500'000},
                                            {"board_limit", 3}}}};
  const Throttling t = throttling_between(before, after);
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(t.causes, "power cap 2 ms, thermal 1 ms");
  EXPECT_EQ(t.milliseconds.size(), 2u);
}

TEST(DeviceState, AHardwareSlowdownIsAddedToTheCounters) {
  // No counter is sure to cover a hardware slowdown (an external power brake): its bit counts.
  const json before = {{"throttle_time_ns", {{"power", 0}}}};
  json after = {{"throttle_time_ns", {{"power", 0}}},
                {"throttle_reasons", {"sw_power_cap", "hw_power_brake_slowdown"}}};
  Throttling t = throttling_between(before, after);
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(t.causes, "hw_power_brake_slowdown");
  after["throttle_reasons"] = {"sw_power_cap"};
  EXPECT_FALSE(throttling_between(before, after).throttled);
}
