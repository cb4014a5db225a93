#pragma once
// How every command prints figures, amounts of bytes, seconds and percentages. One home, so a
// figure reads the same wherever it appears; where two printed forms are pinned by golden files or
// documented output, both are here under their own names rather than one silently replacing the
// other. Sizes as users type them (format_size, approximate_size) stay beside their parser in
// core/units.hpp; budgets ("12m 34s") beside parse_duration in core/duration.hpp.
#include <optional>
#include <string>

namespace cb {

// ---- Figures ------------------------------------------------------------------------------------
// `digits` significant digits without an exponent for everyday magnitudes (1e-3 to 1e7), with one
// outside them: 457.942 -> "457.9", 0 -> "0", 2.5e8 (3) -> "2.50e+08"; "-" for NaN or infinity.
// The report's form.
std::string format_figure(double value, int digits = 4);
// As format_figure, but zero keeps its decimals ("0.000") and infinity shows ("inf", "-inf"): the
// verdicts' form (compare, check), where an infinite ratio is a finding, not a missing value.
std::string format_figure_padded(double value, int digits = 4);
// Specification figures as people write them: whole numbers and anything from 1000 up without
// decimals ("431", "4302"), then 1, 2 or 3 significant decimals by magnitude ("431.2", "55.40",
// "0.853"). The qualify report's form, where thresholds are typed by hand.
std::string format_spec_figure(double value);
// Three significant digits without trailing zeros, "%.3g": 7 -> "7", 1.5 -> "1.5", 175 -> "175".
std::string format_figure_compact(double value);

// ---- Bytes --------------------------------------------------------------------------------------
// A whole number of binary units as people configure them, anything else in decimal units:
// 65536 -> "64 KiB", 1.4e10 -> "14.0 GB", 812 -> "812 B". The report's form.
std::string format_bytes(double bytes);
// Whole mebibytes as configured, else decimal megabytes, else bytes: "64 MiB", "1.5 MB",
// "812 bytes". The measured step's explanation's form.
std::string format_bytes_mib(double bytes);

// ---- Seconds ------------------------------------------------------------------------------------
// Three significant digits in ASCII units for Markdown and CI logs: "812 ns", "12.3 us", "1.23 ms",
// "2.50 s", 0 -> "0.00 s"; "-" for NaN. The verdicts' form.
std::string format_seconds(double seconds);
// Three significant digits with the micro sign, for the report read in a browser: "812 µs",
// "12.3 ms", "1.21 s", 0 -> "0"; "-" when not finite.
std::string format_seconds_micro(double seconds);
// A step's time in a sentence, "%.3g": "412 ms", "1.21 s" (milliseconds below a second).
std::string format_seconds_brief(double seconds);
// Milliseconds to one decimal whatever the size, so predicted and measured parts line up:
// 0.0123 -> "12.3 ms". The measured step's explanation's form.
std::string format_milliseconds(double seconds);
// Elapsed time on a clock, rounded to the second: 75 -> "1:15", 3725 -> "1:02:05".
std::string format_clock(double seconds);

// ---- Percentages --------------------------------------------------------------------------------
// A fraction as a percentage: 0.8613 -> "86.1 %"; under 1 % two significant digits say how small
// (0.0000734 -> "0.0073 %"); "-" when absent or not finite.
std::string format_percent(std::optional<double> fraction, int decimals = 1);
// A signed percentage: 0.429 -> "+42.9 %", -0.01 -> "-1.0 %"; "-" when not finite.
std::string format_signed_percent(double fraction, int decimals = 1);
// A relative change, signed to one decimal: 0.102 -> "+10.2 %"; "-" for NaN only, so an infinite
// change still reads as one ("+inf %").
std::string format_change(double change);
// A non-negative fraction without sign: 0.187 -> "18.7 %"; from 10 (1000 %) on "over 1000 %",
// where the figure says only that nothing of the kind can be seen; "-" for NaN.
std::string format_percent_capped(double fraction);

} // namespace cb
