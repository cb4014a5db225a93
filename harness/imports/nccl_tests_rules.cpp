#include "imports/nccl_tests_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/collective_math.hpp"
#include "core/error.hpp"
#include "imports/imported_run.hpp"

namespace cb::nccl_tests {

// "" or why a row's figures contradict one another or physics: nccl-tests defines algbw as size /
// time and busbw as algbw times a factor of the collective and the rank count (its
// PERFORMANCE.md), so an edited or garbled figure shows. The slack covers the printing: bandwidths
// to 2 decimals, the time to 2, 1 or 0 decimals as it grows.
std::string implausible_half(const Half& h, long long bytes, const std::string& collective,
                             int ranks) {
  char text[240];
  if (bytes < 0) {
    std::snprintf(text, sizeof text, "size %lld is negative", bytes);
    return text;
  }
  const double t = h.time_us;
  const double slack_us = 0.006 + 0.001 * t;
  const double b = static_cast<double>(bytes);
  const double rate = b / (t * 1e3); // GB/s: bytes per microsecond / 1e3
  const double lowest = b / ((t + slack_us) * 1e3) * 0.98 - 0.011;
  const double highest = t > slack_us ? b / ((t - slack_us) * 1e3) * 1.02 + 0.011 : HUGE_VAL;
  if (h.algbw < lowest || h.algbw > highest) {
    std::snprintf(text, sizeof text,
                  "algbw %.4g GB/s is not its size over its time (%lld B in %.4g us is %.4g GB/s)",
                  h.algbw, bytes, t, rate);
    return text;
  }
  std::optional<double> factor;
  try {
    // A log without its device lines reads as 1 GPU: the factor is known from 2 on.
    if (ranks >= 2)
      factor = busbw_factor(collective_from_name(collective), ranks);
  } catch (const InputError&) {
    // gather, scatter, hypercube: a factor clusterbench does not model; algbw was checked
  }
  if (factor) {
    const double expected = h.algbw * *factor;
    if (std::abs(h.busbw - expected) > 0.02 * expected + 0.011 + 0.005 * *factor) {
      std::snprintf(text, sizeof text,
                    "busbw %.4g GB/s is not algbw %.4g x %.4g, the bus factor of %s on %d GPUs",
                    h.busbw, h.algbw, *factor, collective.c_str(), ranks);
      return text;
    }
  }
  return implausible_rate({{"busbw_gbps", h.busbw}});
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
