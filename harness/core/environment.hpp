#pragma once
// Reading the process environment through a lookup that tests can replace, and what it says about
// how this process was started.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// A variable that changes how collectives and transports behave: NCCL_*, UCX_*, OMPI_MCA_*.
// Every run records them (run.environment); `clusterbench k8s` passes the caller's to the ranks.
bool is_transport_variable(std::string_view name);
// Those of the process's own environment, NAME and value, in the order the environment holds them.
std::vector<std::pair<std::string, std::string>> transport_variables();

} // namespace cb
