#pragma once
// Whether a case's buffers fit in what a GPU has free now, not in its total: NCCL's
// communicators, the pair tests' per-peer buffers and the CUDA context already hold some of it,
// and an allocation that fails ends the run. Host code, unit-tested.
#include <cstddef>
#include <string>

namespace cb::cuda {

// Kept free beyond a case's buffers: the context's own growth, cuBLASLt's workspace, NCCL's
// buffers made on first use.
inline constexpr std::size_t kDeviceMemoryReserve = 512ull << 20;

// "" when `need` bytes (plus the reserve) fit in `free_bytes`, else why not, naming the GPU.
std::string device_memory_shortfall(std::size_t need, std::size_t free_bytes,
                                    const std::string& gpu);

} // namespace cb::cuda
