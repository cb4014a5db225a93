#include "imports/nccl_tests_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/collective_math.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "imports/imported_run.hpp"

namespace cb::nccl_tests {

namespace {

// The algbw a half must show: `bytes` (the share of the printed size the definition counts) over
// its time, with the slack of the printing: bandwidths to 2 decimals, the time to 2, 1 or 0
// decimals as it grows. `low_share` widens the floor when the share is only known to lie in
// [low_share, 1] (a log without its rank lines).
bool algbw_fits(const Half& h, double bytes, double low_share = 1.0) {
  const double t = h.time_us;
  const double slack_us = 0.006 + 0.001 * t;
  const double lowest = bytes * low_share / ((t + slack_us) * 1e3) * 0.98 - 0.011;
  const double highest = t > slack_us ? bytes / ((t - slack_us) * 1e3) * 1.02 + 0.011 : HUGE_VAL;
  return h.algbw >= lowest && h.algbw <= highest;
}

bool busbw_fits(const Half& h, double factor) {
  const double expected = h.algbw * factor;
  return std::abs(h.busbw - expected) <= 0.02 * expected + 0.011 + 0.005 * factor;
}

// nccl-tests before June 2020 (its commit ec1b5e2, "Change all_gather/reduce_scatter algbw to
// match the documentation") printed the total size of all_gather and reduce_scatter but computed
// algbw from one rank's part, count x typesize x (n - 1) over the time, with busbw equal to it
// (factor 1). Those tables carry the "error" column of nccl-tests before 2.13; busbw is the same
// figure under both definitions. True when the half follows that definition.
bool fits_per_rank_part(const Half& h, double bytes, const std::string& collective, int ranks) {
  if (collective != "all_gather" && collective != "reduce_scatter")
    return false;
  if (!busbw_fits(h, 1.0))
    return false;
  if (ranks >= 2)
    return algbw_fits(h, bytes * (ranks - 1) / ranks);
  return algbw_fits(h, bytes, 0.5); // (n - 1) / n is in [1/2, 1) for any n >= 2
}

// "" or why a half's figures break today's definitions (size / time, busbw = algbw x factor).
std::string against_current_definition(const Half& h, long long bytes,
                                       const std::string& collective, int ranks) {
  const double b = static_cast<double>(bytes);
  if (!algbw_fits(h, b)) {
    return "algbw " + format_figure_compact(h.algbw, 4) + " GB/s is not its size over its time (" +
           std::to_string(bytes) + " B in " + format_figure_compact(h.time_us, 4) + " us is " +
           format_figure_compact(b / (h.time_us * 1e3), 4) + " GB/s)";
  }
  std::optional<double> factor;
  try {
    // A log without its device lines reads as 1 GPU: the factor is known from 2 on.
    if (ranks >= 2)
      factor = busbw_factor(collective_from_name(collective), ranks);
  } catch (const InputError&) {
    // gather, scatter, hypercube: a factor clusterbench does not model; algbw was checked
  }
  if (factor && !busbw_fits(h, *factor)) {
    return "busbw " + format_figure_compact(h.busbw, 4) + " GB/s is not algbw " +
           format_figure_compact(h.algbw, 4) + " x " + format_figure_compact(*factor, 4) +
           ", the bus factor of " + collective + " on " + std::to_string(ranks) + " GPUs";
  }
  return "";
}

} // namespace

HalfCheck check_half(const Half& h, long long bytes, const std::string& collective, int ranks,
                     CheckColumn column) {
  if (bytes < 0) {
    char text[64];
    std::snprintf(text, sizeof text, "size %lld is negative", bytes);
    return {text, false};
  }
  HalfCheck result{against_current_definition(h, bytes, collective, ranks), false};
  if (!result.problem.empty() && column == CheckColumn::max_deviation &&
      fits_per_rank_part(h, static_cast<double>(bytes), collective, ranks)) {
    result = {"", true};
  }
  if (result.problem.empty())
    result.problem = implausible_rate({{"busbw_gbps", h.busbw}});
  return result;
}

std::optional<double> deviation_tolerance(std::string_view type) {
  if (type == "half" || type == "bfloat16")
    return 1e-2;
  if (type == "float")
    return 1e-5;
  if (type == "double")
    return 1e-12;
  static const char* integers[] = {"int8",  "uint8",  "int32", "uint32",
                                   "int64", "uint64", "char",  "int"};
  for (const char* name : integers) {
    if (type == name)
      return 0.0;
  }
  return std::nullopt;
}

bool known_type(std::string_view type) {
  static const char* names[] = {"int8",  "uint8",  "int32",    "uint32", "int64",  "uint64", "half",
                                "float", "double", "bfloat16", "f8e4m3", "f8e5m2", "char",   "int"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return type == n; });
}

bool own_type(std::string_view type) {
  static const char* names[] = {"float", "double", "int32", "bf16", "fp16", "fp8"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return type == n; });
}

bool known_redop(std::string_view op) {
  static const char* names[] = {"sum", "prod", "max", "min", "avg", "mulsum", "none"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return op == n; });
}

} // namespace cb::nccl_tests
