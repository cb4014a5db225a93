#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/units.hpp"

using namespace cb;

TEST(ParseSize, AcceptsBinarySuffixes) {
  EXPECT_EQ(parse_size("8", "--min-bytes"), 8u);
  EXPECT_EQ(parse_size("4K", "--min-bytes"), 4096u);
  EXPECT_EQ(parse_size("4k", "--min-bytes"), 4096u);
  EXPECT_EQ(parse_size("1M", "--min-bytes"), 1u << 20);
  EXPECT_EQ(parse_size("2G", "--min-bytes"), 2ull << 30);
  EXPECT_EQ(parse_size("64KiB", "--min-bytes"), 65536u);
  EXPECT_EQ(parse_size("3MB", "--min-bytes"), 3u << 20);
}

TEST(ParseSize, RejectsZeroNegativeAndJunkNamingTheFlag) {
  for (const char* bad : {"0", "-1", "", "abc", "1X", "1.5M", "0K"}) {
    try {
      parse_size(bad, "--max-bytes");
      FAIL() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--max-bytes"), std::string::npos) << e.what();
      EXPECT_EQ(e.code(), ExitCode::bad_input);
    }
  }
}

TEST(FormatSize, UsesLargestExactSuffix) {
  EXPECT_EQ(format_size(8), "8");
  EXPECT_EQ(format_size(1024), "1K");
  EXPECT_EQ(format_size(1536), "1536");
  EXPECT_EQ(format_size(16u << 20), "16M");
  EXPECT_EQ(format_size(1ull << 30), "1G");
}

TEST(ApproximateSize, OneDecimalInBinaryUnits) {
  EXPECT_EQ(approximate_size(0), "0 B");
  EXPECT_EQ(approximate_size(1023), "1023 B");
  EXPECT_EQ(approximate_size(1536), "1.5 KiB");
  EXPECT_EQ(approximate_size((256ull << 20) + 4096), "256.0 MiB");
  EXPECT_EQ(approximate_size(2048ull << 30), "2.0 TiB");
  EXPECT_EQ(approximate_size(~0ull), "16.0 EiB");
}

TEST(ParseNumber, StrictWholeText) {
  EXPECT_EQ(parse_integer("42", "--np"), 42);
  EXPECT_THROW(parse_integer("42x", "--np"), InputError);
  EXPECT_THROW(parse_integer("", "--np"), InputError);
  try {
    parse_integer("99999999999999999999", "--gpus");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--gpus: '99999999999999999999' is a whole number too large for any count");
  }
  EXPECT_DOUBLE_EQ(parse_number("1.5", "--step-factor"), 1.5);
  EXPECT_THROW(parse_number("two", "--step-factor"), InputError);
  EXPECT_THROW(parse_number("inf", "--step-factor"), InputError);
}

TEST(SplitList, RejectsEmptyItems) {
  EXPECT_EQ(split_list("a,b,c", "--cases"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_THROW(split_list("a,,c", "--cases"), InputError);
  EXPECT_THROW(split_list("", "--cases"), InputError);
  EXPECT_THROW(split_list("a,", "--cases"), InputError);
}

TEST(ParseCount, DecimalSuffixesAsModelSizesAreWritten) {
  EXPECT_DOUBLE_EQ(parse_count("7e9", "--model-params"), 7e9);
  EXPECT_DOUBLE_EQ(parse_count("7B", "--model-params"), 7e9);
  EXPECT_DOUBLE_EQ(parse_count("1.5T", "--model-params"), 1.5e12);
  EXPECT_DOUBLE_EQ(parse_count("350M", "--model-params"), 350e6);
  EXPECT_DOUBLE_EQ(parse_count("4K", "--tokens-per-gpu"), 4e3);
  EXPECT_THROW(parse_count("", "--model-params"), InputError);
  EXPECT_THROW(parse_count("B", "--model-params"), InputError);
  EXPECT_THROW(parse_count("7X", "--model-params"), InputError);
}

TEST(Units, LinkRatesAsNicsAreSoldAndToolsPrintThem) {
  EXPECT_DOUBLE_EQ(parse_link_rate("400gbit", "--plan-link"), 50e9);
  EXPECT_DOUBLE_EQ(parse_link_rate("1gbit", "--plan-link"), 125e6);
  EXPECT_DOUBLE_EQ(parse_link_rate("100Gbps", "--plan-link"), 12.5e9);
  EXPECT_DOUBLE_EQ(parse_link_rate("50GB", "--plan-link"), 50e9);
  EXPECT_DOUBLE_EQ(parse_link_rate("12.5GB/s", "--plan-link"), 12.5e9);
  EXPECT_DOUBLE_EQ(parse_link_rate("200mbit", "--plan-link"), 25e6);
  for (const char* bad : {"", "fast", "10", "0gbit", "-1gbit", "1.2.3gbit", "10furlongs", "1kbit",
                          "1000TB", "gbit"}) {
    try {
      parse_link_rate(bad, "--plan-link");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--plan-link: ", 0), 0u) << e.what();
    }
  }
}
