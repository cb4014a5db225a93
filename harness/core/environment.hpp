#pragma once
// Reading the process environment through a lookup that tests can replace, and what it says about
// how this process was started.
#include <functional>
#include <optional>
#include <string>

namespace cb {

// Looks up one environment variable; nullopt when it is unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The process's own environment (getenv).
EnvironmentLookup process_environment();

// True for a task of a job step started by srun: SLURM_STEP_ID (or SLURM_STEPID), SLURM_PROCID and
// SLURM_NTASKS are set. A batch script has SLURM_PROCID and SLURM_NTASKS but no step id: there
// `clusterbench run` still launches its ranks itself.
bool running_under_slurm_step(const EnvironmentLookup& environment);
bool running_under_slurm_step();

} // namespace cb
