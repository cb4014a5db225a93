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
// `digits` significant digits without trailing zeros, "%.*g": 7 -> "7", 1.5 -> "1.5", 175.4 ->
// "175"; 4 digits: 1234.56 -> "1235"; 6 digits is printf's "%g". Rates in sentences ("%.3g GB/s"),
// the culprits' figures (4), limits in messages (6).
std::string format_figure_compact(double value, int digits = 3);
// Fixed decimals whatever the magnitude, "%.*f", so that a column of them lines up: 0.93214 (3)
// -> "0.932", 1.5 (2) -> "1.50", 1234.5 (0) -> "1234"; NaN and infinity as printf writes them
// ("nan", "inf"). The tables of fit, cost, plan and simulate, and compare's R².
std::string format_fixed(double value, int decimals);
// A ratio to a reference, two decimals, the "x" left to the sentence: 1.0712 -> "1.07", 0.5 ->
// "0.50". qualify's outliers and culprits, in the console and in JUnit.
std::string format_ratio(double ratio);

// A count with thousands separators, rounded to a whole number: 16384 -> "16,384", -1500 ->
// "-1,500"; "-" when not finite. The report's GPU-hours and tokens.
std::string format_count(double value);
// A p-value: three significant digits down to 0.001, then an exponent: "0.034", "6.8e-08"; "-"
// for NaN. The verdicts' tests.
std::string format_p(double p);

// ---- Rates --------------------------------------------------------------------------------------
// A link's rate in decimal gigabytes per second, three significant digits: 12.5 -> "12.5 GB/s",
// 0.0375 -> "0.0375 GB/s", 1234.5 -> "1.23e+03 GB/s". The plan's link and the cost's basis.
std::string format_gbps(double gbps);

// ---- Bytes --------------------------------------------------------------------------------------
// A whole number of binary units as people configure them, anything else in decimal units:
// 65536 -> "64 KiB", 1.4e10 -> "14.0 GB", 812 -> "812 B". The report's form.
std::string format_bytes(double bytes);
// Gibibytes to two decimals whatever the size, so a model's memory reads against the GPU's:
// 80 GiB -> "80.00 GiB", 1.5e9 -> "1.40 GiB". The workload's shape and its memory check.
std::string format_gib(double bytes);
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
// A fraction as a percentage to fixed decimals whatever its size, "%.*f %%": 0.313 -> "31.3 %",
// 0.0004 -> "0.0 %", 1.5 (0) -> "150 %". Sentences whose percentages line up with their
// neighbours' (cost, goodput, the simulator's noise).
std::string format_percent_fixed(double fraction, int decimals = 1);
// A spread as the measurement engine states it, two decimals and no space before the sign:
// 0.0123 -> "1.23%". A record's noisy reason and the run's summary of them.
std::string format_cv_percent(double fraction);
// A non-negative fraction without sign: 0.187 -> "18.7 %"; from 10 (1000 %) on "over 1000 %",
// where the figure says only that nothing of the kind can be seen; "-" for NaN.
std::string format_percent_capped(double fraction);

} // namespace cb
