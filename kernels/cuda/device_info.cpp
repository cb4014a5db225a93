#include "cuda/device_info.hpp"

#include <cuda_runtime_api.h>

#include <cctype>
#include <cstdio>
#include <fstream>

#include "cuda/cuda_error.hpp"

namespace cb::cuda {

std::string format_gpu_uuid(const unsigned char (&bytes)[16]) {
  std::string out = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      out += '-';
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned>(bytes[i]));
    out += hex;
  }
  return out;
}

int numa_node_of_pci_device(const std::string& pci_bus_id, const std::string& sysfs) {
  std::string id;
  for (char c : pci_bus_id) {
    const bool allowed = std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
    if (!allowed)
      return -1; // never a path out of sysfs
    id += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (id.empty())
    return -1;
  std::ifstream in(sysfs + "/bus/pci/devices/" + id + "/numa_node");
  int node = -1;
  if (!(in >> node) || node < 0)
    return -1;
  return node;
}

namespace {
int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  // Attributes a driver does not know (clock rates on some virtualised GPUs) read as 0.
  if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return value;
}
} // namespace

nlohmann::json describe_device(int index) {
  cudaDeviceProp prop{};
  CB_CUDA(cudaGetDeviceProperties(&prop, index));
  unsigned char uuid[16];
  for (int i = 0; i < 16; ++i)
    uuid[i] = static_cast<unsigned char>(prop.uuid.bytes[i]);
  char bus_id[32] = {};
  CB_CUDA(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index));
  nlohmann::json d = {
      {"index", index},
      {"name", prop.name},
      {"uuid", format_gpu_uuid(uuid)},
      {"memory_bytes", static_cast<unsigned long long>(prop.totalGlobalMem)},
      {"pci_bus_id", bus_id},
      {"sm_count", prop.multiProcessorCount},
      {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
      {"l2_bytes", prop.l2CacheSize},
      {"clock_khz", attribute(cudaDevAttrClockRate, index)},
      {"memory_clock_khz", attribute(cudaDevAttrMemoryClockRate, index)},
      {"memory_bus_width_bits", prop.memoryBusWidth}};
  // Which socket's memory and cores are near it: the first-contact check prints it, and a
  // pinned buffer first-touched on the other node is the slow case it explains.
  if (const int numa = numa_node_of_pci_device(bus_id); numa >= 0)
    d["numa_node"] = numa;
  return d;
}

} // namespace cb::cuda
