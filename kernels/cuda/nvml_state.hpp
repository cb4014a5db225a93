#pragma once
// Device state from NVML, read through dlopen("libnvidia-ml.so.1") so that the binary neither
// needs NVML to build nor to start: power, temperature, clocks and the clock-event (throttle)
// reasons, kept beside each record so a figure taken while the GPU was throttled says so.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cb::cuda {

// NVML's clock-event reason bits (nvml.h, nvmlClocksEventReason*), by the names results carry.
struct ThrottleReason {
  std::uint64_t bit;
  const char* name;
  bool slows_work; // a reason that lowers clocks under load (power, thermal, hardware slowdown)
};
const std::vector<ThrottleReason>& throttle_reasons();
// NVML's performance policies whose violation time (nvmlDeviceGetViolationStatus, cumulative
// nanoseconds) counts time the clocks were held down under load, by the names results carry.
// Sync boost (clocks matched across GPUs) and low utilisation (idle) are left out.
struct ThrottlePolicy {
  int policy; // nvmlPerfPolicyType_t
  const char* name;
};
const std::vector<ThrottlePolicy>& throttle_policies();
// The names of the bits set in `mask`, in bit order; unknown bits as "0x...".
std::vector<std::string> decode_throttle_reasons(std::uint64_t mask);
// True when a reason that slows work is set (idle, application clocks, sync boost are not).
bool is_throttled(std::uint64_t mask);

class NvmlState {
public:
  // pci_bus_id: the device to watch, as cudaDeviceGetPCIBusId gives it.
  explicit NvmlState(const std::string& pci_bus_id);
  ~NvmlState();
  NvmlState(const NvmlState&) = delete;
  NvmlState& operator=(const NvmlState&) = delete;
  bool available() const { return device_ != nullptr; }
  // {power_w, temperature_c, sm_clock_mhz, memory_clock_mhz, throttle_reasons, throttled,
  // throttle_time_ns: {power, thermal, board_limit, reliability}}, each where NVML answers, or
  // {"nvml": "<why not>"} when NVML cannot be used.
  nlohmann::json snapshot() const;
  std::string driver_version() const;
  // Binds the calling thread to the CPUs nearest the device (nvmlDeviceSetCpuAffinity): "" when
  // done, else why not.
  std::string bind_calling_thread() const;
  // The CPUs nearest the device (nvmlDeviceGetCpuAffinity) as 64-bit mask words; empty when NVML
  // cannot say.
  std::vector<std::uint64_t> cpu_affinity_words() const;
  // The device's index as NVML and nvidia-smi number it (not CUDA's ordinal: that depends on
  // CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER); -1 when NVML cannot say.
  int index() const;

private:
  struct Api;
  void* library_ = nullptr;
  std::unique_ptr<Api> api_;
  void* device_ = nullptr;
  std::string why_unavailable_;
};

} // namespace cb::cuda
