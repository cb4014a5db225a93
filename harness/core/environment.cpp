#include "core/environment.hpp"

#include <cstdlib>

namespace cb {

EnvironmentLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value)
      return std::nullopt;
    return std::string(value);
  };
}

bool running_under_slurm_step(const EnvironmentLookup& environment) {
  // The batch script itself also has SLURM_PROCID=0 and SLURM_NTASKS (measured with Slurm 22.05),
  // but only srun's tasks have a step id.
  const bool has_step =
      environment("SLURM_STEP_ID").has_value() || environment("SLURM_STEPID").has_value();
  return has_step && environment("SLURM_PROCID").has_value() &&
         environment("SLURM_NTASKS").has_value();
}

bool running_under_slurm_step() {
  return running_under_slurm_step(process_environment());
}

} // namespace cb
