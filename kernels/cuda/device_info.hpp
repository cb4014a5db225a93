#pragma once
// What the results file says about a GPU: identity (name, UUID, PCI bus id) and the facts that
// explain its figures (memory, SMs, clocks, L2). The formatting is host code, unit-tested.
#include <nlohmann/json.hpp>
#include <string>

namespace cb::cuda {

// nvidia-smi's form of a device UUID: "GPU-" then 8-4-4-4-12 lowercase hex digits.
std::string format_gpu_uuid(const unsigned char (&bytes)[16]);

// The JSON object for device `index` of this process: {index, name, uuid, memory_bytes,
// pci_bus_id, sm_count, compute_capability, l2_bytes, clock_khz, memory_clock_khz,
// memory_bus_width_bits}. Throws RunError on a CUDA error.
nlohmann::json describe_device(int index);

} // namespace cb::cuda
