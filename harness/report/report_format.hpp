#pragma once
// How the report prints figures: a few significant digits, percentages with one decimal, and the
// parameters of a case the way people name them ("bytes=32M dtype=float").
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace cb::report {

// `digits` significant digits without an exponent for everyday magnitudes (1e-3 to 1e7), with one
// outside them; "-" for NaN or infinity.
std::string format_figure(double value, int digits = 4);
// A fraction as a percentage: 0.8613 -> "86.1 %", 0.00034 -> "0.034 %"; "-" when absent or not
// finite.
std::string format_percent(std::optional<double> fraction, int decimals = 1);
// A cost overhead 1/E - 1: "+42.9 %" up to doubling, beyond it the multiple of the ideal cost,
// "7.16×", which reads better than "+616 %".
std::string format_cost_overhead(double overhead);
// A signed percentage for cost overheads: 0.429 -> "+42.9 %", -0.01 -> "-1.0 %".
std::string format_signed_percent(double fraction, int decimals = 1);
// A count with thousands separators: 16384 -> "16,384".
std::string format_count(double value);
// "bytes=32M dtype=float op=sum in_place=false"; sizes (keys naming bytes) as 4K/1M/2G.
std::string describe_params(const nlohmann::json& params);
// "busbw_gbps" -> "busbw (GB/s)", "gbps" -> "GB/s", "tflops" -> "TFLOP/s", "gflops" -> "GFLOP/s",
// "latency_us" -> "latency (us)".
std::string metric_label(const std::string& metric);

} // namespace cb::report
