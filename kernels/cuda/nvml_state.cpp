#include "cuda/nvml_state.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>

namespace cb::cuda {

const std::vector<ThrottleReason>& throttle_reasons() {
  static const std::vector<ThrottleReason> reasons = {
      {0x1, "gpu_idle", false},
      {0x2, "applications_clocks_setting", false},
      {0x4, "sw_power_cap", true},
      {0x8, "hw_slowdown", true},
      {0x10, "sync_boost", false},
      {0x20, "sw_thermal_slowdown", true},
      {0x40, "hw_thermal_slowdown", true},
      {0x80, "hw_power_brake_slowdown", true},
      {0x100, "display_clock_setting", false},
  };
  return reasons;
}

const std::vector<ThrottlePolicy>& throttle_policies() {
  static const std::vector<ThrottlePolicy> policies = {
      {0, "power"},       // NVML_PERF_POLICY_POWER
      {1, "thermal"},     // NVML_PERF_POLICY_THERMAL
      {3, "board_limit"}, // NVML_PERF_POLICY_BOARD_LIMIT
      {5, "reliability"}, // NVML_PERF_POLICY_RELIABILITY
  };
  return policies;
}

std::vector<std::string> decode_throttle_reasons(std::uint64_t mask) {
  std::vector<std::string> out;
  std::uint64_t known = 0;
  for (const auto& r : throttle_reasons()) {
    known |= r.bit;
    if (mask & r.bit)
      out.emplace_back(r.name);
  }
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t b = 1ull << bit;
    if ((mask & b) && !(known & b)) {
      char text[24];
      std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(b));
      out.emplace_back(text);
    }
  }
  return out;
}

bool is_throttled(std::uint64_t mask) {
  for (const auto& r : throttle_reasons()) {
    if (r.slows_work && (mask & r.bit))
      return true;
  }
  return false;
}

// The few NVML entry points used, by their C signatures (nvml.h is not needed to build).
struct NvmlState::Api {
  using Device = void*;
  struct ViolationTime { // nvmlViolationTime_t
    unsigned long long reference_time_us;
    unsigned long long violation_time_ns;
  };
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*handle_by_pci)(const char*, Device*) = nullptr;
  int (*power_usage)(Device, unsigned*) = nullptr;
  int (*temperature)(Device, int, unsigned*) = nullptr;
  int (*clock_info)(Device, int, unsigned*) = nullptr;
  int (*throttle)(Device, unsigned long long*) = nullptr;
  int (*driver_version)(char*, unsigned) = nullptr;
  int (*set_cpu_affinity)(Device) = nullptr;
  int (*get_cpu_affinity)(Device, unsigned, unsigned long*) = nullptr;
  int (*get_index)(Device, unsigned*) = nullptr;
  int (*violation_status)(Device, int, ViolationTime*) = nullptr;
};

namespace {
template <typename F> void bind(void* library, F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(library, name));
}
constexpr int kTemperatureGpu = 0; // NVML_TEMPERATURE_GPU
constexpr int kClockSm = 1;        // NVML_CLOCK_SM
constexpr int kClockMem = 2;       // NVML_CLOCK_MEM
} // namespace

NvmlState::NvmlState(const std::string& pci_bus_id) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library_) {
    why_unavailable_ = "libnvidia-ml.so.1 not found";
    return;
  }
  api_ = std::make_unique<Api>();
  bind(library_, api_->init, "nvmlInit_v2");
  bind(library_, api_->shutdown, "nvmlShutdown");
  bind(library_, api_->handle_by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
  bind(library_, api_->power_usage, "nvmlDeviceGetPowerUsage");
  bind(library_, api_->temperature, "nvmlDeviceGetTemperature");
  bind(library_, api_->clock_info, "nvmlDeviceGetClockInfo");
  bind(library_, api_->throttle, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!api_->throttle)
    bind(library_, api_->throttle, "nvmlDeviceGetCurrentClocksThrottleReasons");
  bind(library_, api_->driver_version, "nvmlSystemGetDriverVersion");
  bind(library_, api_->set_cpu_affinity, "nvmlDeviceSetCpuAffinity");
  bind(library_, api_->get_cpu_affinity, "nvmlDeviceGetCpuAffinity");
  bind(library_, api_->get_index, "nvmlDeviceGetIndex");
  bind(library_, api_->violation_status, "nvmlDeviceGetViolationStatus");
  if (!api_->init || !api_->shutdown || !api_->handle_by_pci || api_->init() != 0) {
    why_unavailable_ = "nvmlInit failed";
    api_->init = nullptr;
    return;
  }
  Api::Device device = nullptr;
  if (api_->handle_by_pci(pci_bus_id.c_str(), &device) != 0) {
    why_unavailable_ = "NVML does not know the device at " + pci_bus_id;
    return;
  }
  device_ = device;
}

NvmlState::~NvmlState() {
  if (api_ && api_->init && api_->shutdown)
    api_->shutdown();
  if (library_)
    dlclose(library_);
}

nlohmann::json NvmlState::snapshot() const {
  if (!device_)
    return {{"nvml", why_unavailable_}};
  nlohmann::json s = nlohmann::json::object();
  unsigned value = 0;
  if (api_->power_usage && api_->power_usage(device_, &value) == 0)
    s["power_w"] = value / 1000.0;
  if (api_->temperature && api_->temperature(device_, kTemperatureGpu, &value) == 0) {
    s["temperature_c"] = value;
  }
  if (api_->clock_info && api_->clock_info(device_, kClockSm, &value) == 0) {
    s["sm_clock_mhz"] = value;
  }
  if (api_->clock_info && api_->clock_info(device_, kClockMem, &value) == 0) {
    s["memory_clock_mhz"] = value;
  }
  unsigned long long mask = 0;
  if (api_->throttle && api_->throttle(device_, &mask) == 0) {
    s["throttle_reasons"] = decode_throttle_reasons(mask);
    s["throttled"] = is_throttled(mask);
  }
  // Cumulative time each cause has held the clocks down since the driver loaded: the growth
  // across a record says whether it was throttled while measured (runtime/device_state.hpp).
  if (api_->violation_status) {
    nlohmann::json counters = nlohmann::json::object();
    unsigned long long read_at_us = 0;
    for (const auto& policy : throttle_policies()) {
      Api::ViolationTime time{};
      if (api_->violation_status(device_, policy.policy, &time) == 0) {
        counters[policy.name] = time.violation_time_ns;
        read_at_us = std::max(read_at_us, time.reference_time_us);
      }
    }
    if (!counters.empty()) {
      s["throttle_time_ns"] = counters;
      if (read_at_us > 0)
        s["throttle_read_at_us"] = read_at_us; // NVML's CPU timestamp of the reading
    }
  }
  return s;
}

std::string NvmlState::driver_version() const {
  if (!api_ || !api_->init || !api_->driver_version)
    return "";
  char text[96] = {};
  if (api_->driver_version(text, sizeof text) != 0)
    return "";
  return text;
}

std::string NvmlState::bind_calling_thread() const {
  if (!device_)
    return why_unavailable_;
  if (!api_->set_cpu_affinity)
    return "this NVML has no nvmlDeviceSetCpuAffinity";
  const int rc = api_->set_cpu_affinity(device_);
  return rc == 0 ? std::string()
                 : "nvmlDeviceSetCpuAffinity failed (NVML error " + std::to_string(rc) + ")";
}

std::vector<std::uint64_t> NvmlState::cpu_affinity_words() const {
  if (!device_ || !api_->get_cpu_affinity)
    return {};
  // 1,024 CPUs: more than any node this runs on has.
  std::vector<unsigned long> words(1024 / (8 * sizeof(unsigned long)), 0);
  if (api_->get_cpu_affinity(device_, static_cast<unsigned>(words.size()), words.data()) != 0)
    return {};
  static_assert(sizeof(unsigned long) == sizeof(std::uint64_t), "LP64 Linux only");
  std::vector<std::uint64_t> out(words.begin(), words.end());
  return out;
}

int NvmlState::index() const {
  unsigned value = 0;
  if (!device_ || !api_->get_index || api_->get_index(device_, &value) != 0)
    return -1;
  return static_cast<int>(value);
}

} // namespace cb::cuda
