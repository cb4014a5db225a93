#include "cuda/memory_check.hpp"

#include "core/units.hpp"

namespace cb::cuda {

std::string device_memory_shortfall(std::size_t need, std::size_t free_bytes,
                                    const std::string& gpu) {
  if (need <= free_bytes && free_bytes - need >= kDeviceMemoryReserve)
    return "";
  return "needs " + approximate_size(need) + " of GPU memory (and " +
         approximate_size(kDeviceMemoryReserve) + " kept free), " + approximate_size(free_bytes) +
         " free on GPU " + gpu;
}

} // namespace cb::cuda
