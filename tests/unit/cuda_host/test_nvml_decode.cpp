#include <gtest/gtest.h>

#include "cuda/nvml_state.hpp"

namespace cb::cuda {
namespace {

TEST(NvmlDecode, NamesTheBitsInOrder) {
  EXPECT_TRUE(decode_throttle_reasons(0).empty());
  EXPECT_EQ(decode_throttle_reasons(0x1), std::vector<std::string>{"gpu_idle"});
  EXPECT_EQ(decode_throttle_reasons(0x4 | 0x40),
            (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
  EXPECT_EQ(decode_throttle_reasons(0x80), std::vector<std::string>{"hw_power_brake_slowdown"});
}

TEST(NvmlDecode, UnknownBitsAreKeptAsHex) {
  EXPECT_EQ(decode_throttle_reasons(0x1000 | 0x2),
            (std::vector<std::string>{"applications_clocks_setting", "0x1000"}));
}

TEST(NvmlDecode, OnlyReasonsThatSlowWorkCountAsThrottled) {
  EXPECT_FALSE(is_throttled(0));
  EXPECT_FALSE(is_throttled(0x1));   // idle
  EXPECT_FALSE(is_throttled(0x2));   // application clocks
  EXPECT_FALSE(is_throttled(0x10));  // sync boost
  EXPECT_FALSE(is_throttled(0x100)); // display clock
  EXPECT_TRUE(is_throttled(0x4));    // software power cap
  EXPECT_TRUE(is_throttled(0x8));
  EXPECT_TRUE(is_throttled(0x20));
  EXPECT_TRUE(is_throttled(0x40));
  EXPECT_TRUE(is_throttled(0x80));
  EXPECT_TRUE(is_throttled(0x1 | 0x20));
}

TEST(NvmlDecode, WithoutTheLibraryTheSnapshotSaysWhy) {
  NvmlState state("0000:00:00.0");
  if (state.available())
    GTEST_SKIP() << "NVML is present here";
  const auto s = state.snapshot();
  ASSERT_TRUE(s.contains("nvml"));
  EXPECT_FALSE(s["nvml"].get<std::string>().empty());
  EXPECT_EQ(state.driver_version().empty(), true);
}

} // namespace
} // namespace cb::cuda
