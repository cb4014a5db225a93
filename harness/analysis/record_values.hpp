#pragma once
// Figures read off a record the same way by every model: time per operation and problem size.
#include <optional>

#include "results/record.hpp"

namespace cb {

// Seconds per operation: the median sample, else metrics.time_us; nullopt when neither is usable.
std::optional<double> seconds_per_operation(const Record& record);
// params.bytes as a positive number; nullopt when absent.
std::optional<double> message_bytes(const Record& record);
// A size to order records of one case by: m*n*k for GEMM-like params, else bytes, block_bytes,
// size or n; nullopt when none is present.
std::optional<double> problem_size(const nlohmann::json& params);
// params.in_place as a boolean (0/1 accepted); nullopt when absent or of another type.
std::optional<bool> in_place_flag(const nlohmann::json& params);
// The params that identify a measurement across GPU counts: without "count", the elements per rank
// that collectives derive from bytes and the GPU count (all_gather on 4 GPUs moves a quarter of
// the per-rank elements it moves on 1 for the same bytes).
nlohmann::json identity_params(const nlohmann::json& params);
// identity_params without the message size "bytes": the params an alpha-beta line spans.
nlohmann::json params_without_size(const nlohmann::json& params);
// ok or noisy: the records the analysis uses.
bool is_usable(const Record& record);

} // namespace cb
