// The figures every command prints: each form pinned, since golden reports and documented outputs
// depend on them byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/format.hpp"

namespace cb {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Format, FigureKeepsSignificantDigitsAndHidesWhatIsNotAFigure) {
  EXPECT_EQ(format_figure(457.942272), "457.9");
  EXPECT_EQ(format_figure(23327.789697), "23328");
  EXPECT_EQ(format_figure(0.0854501, 3), "0.0855");
  EXPECT_EQ(format_figure(0), "0");
  EXPECT_EQ(format_figure(9.9996e6), "9999600");
  EXPECT_EQ(format_figure(1e7, 3), "1.00e+07");
  EXPECT_EQ(format_figure(4.518e-4, 3), "4.52e-04");
  EXPECT_EQ(format_figure(-12.345, 3), "-12.3");
  EXPECT_EQ(format_figure(NAN), "-");
  EXPECT_EQ(format_figure(-kInf), "-");
}

TEST(Format, PaddedFigureKeepsZerosDecimalsAndShowsInfinity) {
  EXPECT_EQ(format_figure_padded(412.345), "412.3");
  EXPECT_EQ(format_figure_padded(0), "0.000");
  EXPECT_EQ(format_figure_padded(0, 3), "0.00");
  EXPECT_EQ(format_figure_padded(0.01, 2), "0.010");
  EXPECT_EQ(format_figure_padded(2.5e-5), "2.500e-05");
  EXPECT_EQ(format_figure_padded(kInf), "inf");
  EXPECT_EQ(format_figure_padded(-kInf), "-inf");
  EXPECT_EQ(format_figure_padded(NAN), "-");
  // Away from zero and infinity the two forms agree.
  for (double v : {1.0123, 0.0042, 77.77, 123456.0, 3.3e9, -0.25})
    EXPECT_EQ(format_figure_padded(v, 3), format_figure(v, 3)) << v;
}

TEST(Format, SpecFigureWritesWholeNumbersWhole) {
  EXPECT_EQ(format_spec_figure(4302.4), "4302");
  EXPECT_EQ(format_spec_figure(431), "431");
  EXPECT_EQ(format_spec_figure(431.25), "431.2");
  EXPECT_EQ(format_spec_figure(55.4), "55.40");
  EXPECT_EQ(format_spec_figure(0.8534), "0.853");
  EXPECT_EQ(format_spec_figure(-2.5), "-2.5");
}

TEST(Format, CompactFigureDropsTrailingZeros) {
  EXPECT_EQ(format_figure_compact(7), "7");
  EXPECT_EQ(format_figure_compact(1.5), "1.5");
  EXPECT_EQ(format_figure_compact(175.4), "175");
  EXPECT_EQ(format_figure_compact(1234.56, 4), "1235");
  EXPECT_EQ(format_figure_compact(0.000123456, 4), "0.0001235");
  EXPECT_EQ(format_figure_compact(2.5e9, 4), "2.5e+09");
  // Six digits is printf's own %g, which messages quoting a limit use.
  EXPECT_EQ(format_figure_compact(1e6, 6), "1e+06");
  EXPECT_EQ(format_figure_compact(4096, 6), "4096");
  EXPECT_EQ(format_figure_compact(12.5, 6), "12.5");
}

TEST(Format, FixedDecimalsLineUpWhateverTheMagnitude) {
  EXPECT_EQ(format_fixed(0.93214, 3), "0.932");
  EXPECT_EQ(format_fixed(1, 3), "1.000");
  EXPECT_EQ(format_fixed(1.5, 2), "1.50");
  EXPECT_EQ(format_fixed(1234.5, 0), "1234");
  EXPECT_EQ(format_fixed(1235.5, 0), "1236");
  EXPECT_EQ(format_fixed(-0.0004, 3), "-0.000");
  EXPECT_EQ(format_fixed(12345678.9, 1), "12345678.9");
  EXPECT_EQ(format_fixed(NAN, 3), "nan");
  EXPECT_EQ(format_fixed(kInf, 2), "inf");
}

TEST(Format, RatiosToTwoDecimals) {
  EXPECT_EQ(format_ratio(1.0712), "1.07");
  EXPECT_EQ(format_ratio(0.5), "0.50");
  EXPECT_EQ(format_ratio(0.005), "0.01");
  EXPECT_EQ(format_ratio(12), "12.00");
}

TEST(Format, CountsHaveThousandsSeparators) {
  EXPECT_EQ(format_count(16384), "16,384");
  EXPECT_EQ(format_count(4000), "4,000");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1234567), "1,234,567");
  EXPECT_EQ(format_count(-1500), "-1,500");
  EXPECT_EQ(format_count(-0.4), "0");
  EXPECT_EQ(format_count(NAN), "-");
}

TEST(Format, PValuesTakeAnExponentBelowAThousandth) {
  EXPECT_EQ(format_p(0.034), "0.034");
  EXPECT_EQ(format_p(0.01), "0.01");
  EXPECT_EQ(format_p(0.001), "0.001");
  EXPECT_EQ(format_p(6.8e-8), "6.8e-08");
  EXPECT_EQ(format_p(NAN), "-");
}

TEST(Format, RatesInGigabytesPerSecond) {
  EXPECT_EQ(format_gbps(12.5), "12.5 GB/s");
  EXPECT_EQ(format_gbps(0.0375), "0.0375 GB/s");
  EXPECT_EQ(format_gbps(1234.5), "1.23e+03 GB/s");
  EXPECT_EQ(format_gbps(100), "100 GB/s");
}

TEST(Format, BytesInBinaryUnitsOnlyWhenExact) {
  EXPECT_EQ(format_bytes(65536), "64 KiB");
  EXPECT_EQ(format_bytes(3.0 * 1024 * 1024 * 1024), "3 GiB");
  // 1536 MiB is no whole number of GiB, and 1536 is too many MiB to read: decimal.
  EXPECT_EQ(format_bytes(1.5 * 1024 * 1024 * 1024), "1.6 GB");
  EXPECT_EQ(format_bytes(1.4e10), "14.0 GB");
  EXPECT_EQ(format_bytes(812), "812 B");
  EXPECT_EQ(format_bytes(1024.0 * 1024 * 1024 * 1024 * 1024), "1125.9 TB");
  EXPECT_EQ(format_bytes(1500), "1.5 kB");
}

TEST(Format, GibibytesToTwoDecimals) {
  EXPECT_EQ(format_gib(80.0 * (1ull << 30)), "80.00 GiB");
  EXPECT_EQ(format_gib(1.5e9), "1.40 GiB");
  EXPECT_EQ(format_gib(0), "0.00 GiB");
}

TEST(Format, BytesInMebibytesOrMegabytes) {
  EXPECT_EQ(format_bytes_mib(64.0 * (1 << 20)), "64 MiB");
  EXPECT_EQ(format_bytes_mib(1.5e6), "1.5 MB");
  EXPECT_EQ(format_bytes_mib(812), "812 bytes");
  EXPECT_EQ(format_bytes_mib(65536), "65536 bytes");
}

TEST(Format, SecondsInAsciiUnits) {
  EXPECT_EQ(format_seconds(2.5), "2.50 s");
  EXPECT_EQ(format_seconds(1.234e-3), "1.23 ms");
  EXPECT_EQ(format_seconds(12.34e-6), "12.3 us");
  EXPECT_EQ(format_seconds(812e-9), "812 ns");
  EXPECT_EQ(format_seconds(0), "0.00 s");
  EXPECT_EQ(format_seconds(NAN), "-");
}

TEST(Format, SecondsWithTheMicroSign) {
  EXPECT_EQ(format_seconds_micro(812e-6), "812 µs");
  EXPECT_EQ(format_seconds_micro(12.34e-3), "12.3 ms");
  EXPECT_EQ(format_seconds_micro(1.214), "1.21 s");
  EXPECT_EQ(format_seconds_micro(0), "0");
  EXPECT_EQ(format_seconds_micro(kInf), "-");
}

TEST(Format, BriefSecondsAndMilliseconds) {
  EXPECT_EQ(format_seconds_brief(0.4123), "412 ms");
  EXPECT_EQ(format_seconds_brief(1.214), "1.21 s");
  EXPECT_EQ(format_milliseconds(0.01234), "12.3 ms");
  EXPECT_EQ(format_milliseconds(2.5), "2500.0 ms");
}

TEST(Format, ClockRoundsToTheSecond) {
  EXPECT_EQ(format_clock(0.4), "0:00");
  EXPECT_EQ(format_clock(74.6), "1:15");
  EXPECT_EQ(format_clock(3599.4), "59:59");
  EXPECT_EQ(format_clock(3725), "1:02:05");
}

TEST(Format, Percentages) {
  EXPECT_EQ(format_percent(0.8613), "86.1 %");
  EXPECT_EQ(format_percent(1.0, 0), "100 %");
  EXPECT_EQ(format_percent(0.0000734), "0.0073 %");
  EXPECT_EQ(format_percent(0.0), "0.0 %");
  EXPECT_EQ(format_percent(std::nullopt), "-");
  EXPECT_EQ(format_percent(kInf), "-");
  EXPECT_EQ(format_signed_percent(0.429), "+42.9 %");
  EXPECT_EQ(format_signed_percent(-0.01), "-1.0 %");
  EXPECT_EQ(format_signed_percent(NAN), "-");
  EXPECT_EQ(format_change(0.102), "+10.2 %");
  EXPECT_EQ(format_change(-0.152), "-15.2 %");
  EXPECT_EQ(format_change(NAN), "-");
  EXPECT_EQ(format_change(kInf), "+inf %");
  EXPECT_EQ(format_percent_capped(0.187), "18.7 %");
  EXPECT_EQ(format_percent_capped(9.99), "999.0 %");
  EXPECT_EQ(format_percent_capped(10), "over 1000 %");
  EXPECT_EQ(format_percent_capped(NAN), "-");
  // Fixed decimals even under 1 %, where format_percent would switch to significant digits.
  EXPECT_EQ(format_percent_fixed(0.313), "31.3 %");
  EXPECT_EQ(format_percent_fixed(0.0004), "0.0 %");
  EXPECT_EQ(format_percent_fixed(1.5, 0), "150 %");
  EXPECT_EQ(format_percent_fixed(0.125, 2), "12.50 %");
  // The engine's spread: two decimals, no space, as records' reasons have always said it.
  EXPECT_EQ(format_cv_percent(0.0123), "1.23%");
  EXPECT_EQ(format_cv_percent(0.05), "5.00%");
  EXPECT_EQ(format_cv_percent(0), "0.00%");
}

} // namespace
} // namespace cb
