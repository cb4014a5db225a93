#include <gtest/gtest.h>

#include "core/duration.hpp"
#include "core/error.hpp"

using namespace cb;

TEST(Duration, AcceptsSecondsMinutesAndHours) {
  EXPECT_DOUBLE_EQ(parse_duration("90s", "--budget"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("15m", "--budget"), 900);
  EXPECT_DOUBLE_EQ(parse_duration("15min", "--budget"), 900);
  EXPECT_DOUBLE_EQ(parse_duration("1.5h", "--budget"), 5400);
}

TEST(Duration, RefusesZeroNegativeMissingAndUnknownUnits) {
  for (const char* bad : {"0m", "-5m", "15", "15d", "15 m", "m", "", "nanm", "1e400s"}) {
    try {
      parse_duration(bad, "--budget");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--budget"), std::string::npos) << e.what();
    }
  }
}

TEST(Duration, ALongValueIsEchoedCutSoTheReasonStaysOnTheLine) {
  try {
    parse_duration(std::string(500, 'x'), "--budget");
    ADD_FAILURE();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_LT(message.size(), 200u) << message;
    EXPECT_NE(message.find("needs a unit"), std::string::npos) << message;
  }
}

TEST(Duration, FormatsAsPeopleReadIt) {
  EXPECT_EQ(format_budget(0.42), "0.4s");
  EXPECT_EQ(format_budget(42), "42s");
  EXPECT_EQ(format_budget(754), "12m 34s");
  EXPECT_EQ(format_budget(3725), "1h 02m 05s");
}
