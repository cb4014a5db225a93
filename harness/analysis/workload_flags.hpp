#pragma once
// The training-step flags `report` and `cost --from` share: --model-params, --tokens-per-gpu,
// --grad-bytes, --overlap and --bytes-per-step, read one way so that the same workload gets the
// same prediction, and the same default input read, from both commands.
#include <string>

#include "analysis/prediction.hpp"
#include "core/args.hpp"

namespace cb {

// Input each GPU reads per step when --bytes-per-step is not given: 4 bytes per token (int32
// token ids) of --tokens-per-gpu.
inline constexpr double kInputBytesPerToken = 4;

// The --bytes-per-step help line, with `lead` in front ("with --from: "), the same everywhere.
std::string bytes_per_step_help(const std::string& lead);

// "0" (no input reads) or a size such as 64K or 1M; InputError naming --bytes-per-step otherwise.
double parse_bytes_per_step(const std::string& text);

// Overrides the fields of `config` whose flags were given. Without --bytes-per-step the input read
// is kInputBytesPerToken per token and optional (left out, with a warning, when the results have
// no storage records); given above 0 it is required.
void read_workload_flags(const ArgParser& args, PredictionConfig& config);

// The --plan-link help line, the same for `report` and `cost`.
std::string plan_link_help();
// --plan-link RATE (units.hpp's parse_link_rate), where given, into config.plan_link.
void read_plan_link(const ArgParser& args, PredictionConfig& config);

} // namespace cb
