#pragma once
// What the results file says about a GPU: identity (name, UUID, PCI bus id) and the facts that
// explain its figures (memory, SMs, clocks, L2). The formatting is host code, unit-tested.
#include <nlohmann/json.hpp>
#include <string>

namespace cb::cuda {

// nvidia-smi's form of a device UUID: "GPU-" then 8-4-4-4-12 lowercase hex digits.
std::string format_gpu_uuid(const unsigned char (&bytes)[16]);

// The NUMA node of the PCI device `pci_bus_id` ("0000:9A:00.0", as CUDA writes it) from
// <sysfs>/bus/pci/devices/<bus id, lowercase>/numa_node: -1 when the file is missing or says -1
// (one NUMA node, or a VM that hides it).
int numa_node_of_pci_device(const std::string& pci_bus_id, const std::string& sysfs = "/sys");

// The JSON object for device `index` of this process: {index, name, uuid, memory_bytes,
// pci_bus_id, numa_node (where known), sm_count, compute_capability, l2_bytes, clock_khz,
// memory_clock_khz, memory_bus_width_bits}. Throws RunError on a CUDA error.
nlohmann::json describe_device(int index);

} // namespace cb::cuda
