// Registers the cuda backend: auto picks it over the host backend (priority 10) when a GPU is
// visible. `--backend cuda` without one exits 2 with the CUDA runtime's own message (the registry
// puts `why` into the error).
#include "cuda/cuda_backend.hpp"
#include "runtime/backend_registry.hpp"

namespace cb::cuda {
namespace {

const BackendRegistration kCudaBackend{
    {"cuda", 10, [](std::string& why) { return count_cuda_devices(why); },
     [](int device) -> std::unique_ptr<Backend> { return std::make_unique<CudaBackend>(device); },
     cuda_build_summary(), [](int device) { return bind_thread_to_gpu(device); },
     [] { return visible_gpus(); }}};

} // namespace
} // namespace cb::cuda
