#pragma once
// The report's own phrases built on the figures of core/format.hpp (format_figure, format_percent,
// format_signed_percent, format_count come from there). A case's parameters: describe_params
// (results/params_text.hpp), as every command prints them.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/format.hpp"
#include "results/params_text.hpp"

namespace cb::report {

// A cost overhead 1/E - 1: "+42.9 %" up to doubling, beyond it the multiple of the ideal cost,
// "7.16×", which reads better than "+616 %".
std::string format_cost_overhead(double overhead);
// "1 GPU", "8 GPUs".
std::string gpus_text(int n);
// "busbw_gbps" -> "busbw (GB/s)", "gbps" -> "GB/s", "tflops" -> "TFLOP/s", "gflops" -> "GFLOP/s",
// "latency_us" -> "latency (us)"; a unitless one by its short name ("pairs"); one the table does
// not know as it is.
std::string metric_label(const std::string& metric);

} // namespace cb::report
