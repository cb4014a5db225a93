#pragma once
// Backends register themselves (the CUDA one only when it is built), so `--backend` choices, the
// auto rule and the launcher's device count need no #ifdefs outside the backend's own files.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/backend.hpp"
#include "runtime/gpu_assignment.hpp"

namespace cb {

struct BackendInfo {
  std::string name;
  int priority = 0; // auto picks the highest-priority backend that has devices
  // Devices this process can use on this node; 0 with `why` filled when none (driver message).
  std::function<int(std::string& why)> count_devices;
  // `device`: the device this rank drives: the one chosen_devices() chose where the backend
  // lists its devices, else the rank's index among its node's ranks.
  std::function<std::unique_ptr<Backend>(int device)> create;
  // What this build of the backend can do and what it left out, for `run --help`.
  std::string build_summary;
  // Binds the calling thread, which will drive device `device`, to the CPUs that suit it, as
  // a launcher binds a rank (`run --single-process`). Returns "" or why it could not.
  std::function<std::string(int device)> bind_thread;
  // The devices this process sees, for backends whose ranks must agree who drives which (GPUs:
  // runtime/gpu_assignment.hpp); empty for the host backend, whose "device" is a core.
  std::function<std::vector<VisibleGpu>()> visible_devices;
};

class BackendRegistry {
public:
  static BackendRegistry& instance();
  void add(BackendInfo info);
  const BackendInfo* find(const std::string& name) const;
  std::vector<std::string> names() const;
  // "Backends in this build:" and one line per backend with its build summary.
  std::string describe() const;
  // Resolves "auto" (and checks a named backend has devices): returns the backend's name, fills
  // `note` with why auto fell back. Throws InputError for an unknown name or a named backend
  // without devices.
  std::string resolve(const std::string& requested, std::string& note) const;

private:
  std::vector<BackendInfo> backends_;
};

struct BackendRegistration {
  explicit BackendRegistration(BackendInfo info) {
    BackendRegistry::instance().add(std::move(info));
  }
};

} // namespace cb
