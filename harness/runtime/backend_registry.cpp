#include "runtime/backend_registry.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/units.hpp"
#include "runtime/host_backend.hpp"

namespace cb {

BackendRegistry& BackendRegistry::instance() {
  static BackendRegistry registry = [] {
    BackendRegistry r;
    // The host backend is always there: one rank per physical core.
    r.add({"host",
           0,
           [](std::string&) { return physical_core_count(); },
           [](int local_rank) -> std::unique_ptr<Backend> {
             return std::make_unique<HostBackend>(local_rank);
           },
           "a rank is a CPU core: STREAM kernels, FMA peak, BLAS GEMM, MPI shared-memory links "
           "and collectives, storage reads into host memory",
           // The host backend's device is a core, as mpirun's --bind-to core makes it.
           [](int local_rank) {
             return pin_this_thread_to_cpu(local_rank) ? std::string()
                                                       : std::string("the CPU set cannot be set");
           },
           {}});
    return r;
  }();
  return registry;
}

void BackendRegistry::add(BackendInfo info) {
  backends_.push_back(std::move(info));
}

std::string BackendRegistry::describe() const {
  std::string out = "Backends in this build:\n";
  for (const auto& b : backends_)
    out += "  " + b.name + ": " + b.build_summary + "\n";
  return out;
}

const BackendInfo* BackendRegistry::find(const std::string& name) const {
  for (const auto& b : backends_) {
    if (b.name == name)
      return &b;
  }
  return nullptr;
}

std::vector<std::string> BackendRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& b : backends_)
    out.push_back(b.name);
  return out;
}

std::string BackendRegistry::resolve(const std::string& requested, std::string& note) const {
  if (requested == "auto") {
    std::vector<const BackendInfo*> ordered;
    for (const auto& b : backends_)
      ordered.push_back(&b);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](auto* a, auto* b) { return a->priority > b->priority; });
    for (const auto* b : ordered) {
      std::string why;
      if (b->count_devices(why) > 0)
        return b->name;
      note += "no usable device for the " + b->name + " backend" +
              (why.empty() ? "" : " (" + why + ")") + "; ";
    }
    throw InputError("--backend auto: no backend has a usable device");
  }
  const BackendInfo* b = find(requested);
  if (!b) {
    std::string known = "auto, " + join(names(), ", ");
    if (requested == "cuda") {
      throw InputError("--backend cuda: this clusterbench was built without the CUDA backend "
                       "(no CUDA toolkit at build time); allowed: " +
                       known);
    }
    throw InputError("--backend: unknown backend '" + requested + "' (allowed: " + known + ")");
  }
  std::string why;
  if (b->count_devices(why) <= 0) {
    throw InputError("--backend " + requested + ": no usable device" +
                     (why.empty() ? "" : ": " + why));
  }
  return requested;
}

} // namespace cb
