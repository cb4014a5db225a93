#include "workload/step_runner.hpp"

#include <utility>

#include "runtime/backend_registry.hpp"

namespace cb {

StepBackendRegistry& StepBackendRegistry::instance() {
  static StepBackendRegistry registry;
  return registry;
}

void StepBackendRegistry::add(BackendKind backend, StepBackend step) {
  backends_[backend] = std::move(step);
}

const StepBackend* StepBackendRegistry::find(BackendKind backend) const {
  const auto it = backends_.find(backend);
  return it == backends_.end() ? nullptr : &it->second;
}

BackendKind step_backend(const RunConfig& config) {
  if (config.backend_kind)
    return *config.backend_kind;
  std::string note;
  const auto kind = backend_kind_named(BackendRegistry::instance().resolve(config.backend, note));
  return kind.value_or(BackendKind::host);
}

} // namespace cb
