#pragma once
// How the report prints figures: a few significant digits, percentages with one decimal. A case's
// parameters: describe_params (results/params_text.hpp), as every command prints them.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "results/params_text.hpp"

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
// "1 GPU", "8 GPUs".
std::string gpus_text(int n);
// A count with thousands separators: 16384 -> "16,384".
std::string format_count(double value);
// "busbw_gbps" -> "busbw (GB/s)", "gbps" -> "GB/s", "tflops" -> "TFLOP/s", "gflops" -> "GFLOP/s",
// "latency_us" -> "latency (us)"; a unitless one by its short name ("pairs"); one the table does
// not know as it is.
std::string metric_label(const std::string& metric);

} // namespace cb::report
