#pragma once
// Whether a spec is about the run it judges: an H200 data sheet held against a CPU run, or
// against H100s, yields a verdict about the wrong hardware (every check "failed" on a healthy
// machine). A spec says its backend and parts (Spec::backend, Spec::devices); a run says its own
// (run.backend, run.hosts[].devices[].name).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qualify/spec.hpp"
#include "results/record.hpp"

namespace cb {

// The distinct device names of a run header, in the order first seen ("" never).
std::vector<std::string> device_names(const nlohmann::json& run);

// Why `spec` cannot judge the run in `results` (read from `results_path`): the run's backend
// differs from the spec's. "" when they agree or either does not say.
std::string backend_mismatch(const ResultsFile& results, const std::string& results_path,
                             const Spec& spec);

// One warning per device name of the run that holds none of the spec's device words as whole
// words (compared without case), with how many of the run's devices have it: at most 8, then
// one line with the count of the rest. Empty when the spec names no parts or the run names no
// devices.
std::vector<std::string> device_mismatch(const ResultsFile& results, const Spec& spec);

} // namespace cb
