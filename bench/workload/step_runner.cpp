#include "workload/step_runner.hpp"

#include "runtime/backend_registry.hpp"

namespace cb {

StepBackendRegistry& StepBackendRegistry::instance() {
  static StepBackendRegistry registry;
  return registry;
}

void StepBackendRegistry::add(const std::string& backend, StepBackend step) {
  backends_[backend] = std::move(step);
}

const StepBackend* StepBackendRegistry::find(const std::string& backend) const {
  const auto it = backends_.find(backend);
  return it == backends_.end() ? nullptr : &it->second;
}

std::vector<std::string> StepBackendRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, step] : backends_)
    out.push_back(name);
  return out;
}

std::string step_backend_name(const RunConfig& config) {
  if (config.backend != "auto")
    return config.backend;
  std::string note;
  return BackendRegistry::instance().resolve(config.backend, note);
}

} // namespace cb
