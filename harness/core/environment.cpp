#include "core/environment.hpp"

#include <cstdlib>

#include <unistd.h> // environ

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

bool is_transport_variable(std::string_view name) {
  for (std::string_view prefix : {"NCCL_", "UCX_", "OMPI_MCA_"}) {
    if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix)
      return true;
  }
  return false;
}

std::vector<std::pair<std::string, std::string>> transport_variables() {
  std::vector<std::pair<std::string, std::string>> found;
  for (char** e = environ; *e; ++e) {
    const std::string_view entry = *e;
    const std::size_t eq = entry.find('=');
    if (eq != std::string_view::npos && is_transport_variable(entry.substr(0, eq)))
      found.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return found;
}

} // namespace cb
