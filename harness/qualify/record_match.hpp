#pragma once
// Which records a spec check applies to, and the number it reads from each.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "qualify/spec.hpp"
#include "results/record.hpp"

namespace cb {

// One constraint against one value: equality (integers exactly, other numbers with a relative
// tolerance of 1e-9), any-of for an array, {"min","max"} for a numeric range. A missing value never
// matches.
bool constraint_matches(const nlohmann::json& constraint, const nlohmann::json* value);
// Every key of `wanted` is present in `params` and matches.
bool params_match(const nlohmann::json& wanted, const nlohmann::json& params);
// Suite, case, params, gpus and nodes all match.
bool record_matches(const Expectation& e, const Record& r);

// The number the check compares: the metric as is, per GPU, or the slowest off-diagonal entry of
// extra.matrix. nullopt when the record lacks it; `why` then says what is missing.
std::optional<double> measure_record(const Expectation& e, const Record& r, std::string* why);

// The figure a record is judged by when nothing names one: busbw_gbps, gbps, tflops, gflops (the
// metric table's headline throughputs), iops, latency_us, time_us, the first of those the record
// has among `candidates` (its metrics when null); empty when none.
std::string primary_metric(const nlohmann::json& candidates);

// "compute/copy bytes=1G dtype=float gpus=8" — how reports name a record.
std::string describe_record(const Record& r);

} // namespace cb
