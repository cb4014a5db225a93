#pragma once
// Error checks for CUDA runtime, NCCL and cuBLAS calls. Each throws cb::RunError (exit 3) with the
// library's own message, the call that failed, file:line, host and rank (CB_RUN_ERROR), so a device
// error on one rank of a large job says where it happened. No early-return macros: callers hold
// every handle in RAII types, so unwinding frees them.
#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <string>

namespace cb::cuda {

// "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version".
std::string cuda_error_text(cudaError_t rc);
std::string cublas_status_text(cublasStatus_t rc);

[[noreturn]] void throw_cuda_error(cudaError_t rc, const char* call, const char* file, int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t rc, const char* call, const char* file,
                                     int line);

} // namespace cb::cuda

#define CB_CUDA(call)                                                                              \
  do {                                                                                             \
    const cudaError_t cb_cuda_rc_ = (call);                                                        \
    if (cb_cuda_rc_ != cudaSuccess) {                                                              \
      ::cb::cuda::throw_cuda_error(cb_cuda_rc_, #call, __FILE__, __LINE__);                        \
    }                                                                                              \
  } while (0)

#define CB_CUBLAS(call)                                                                            \
  do {                                                                                             \
    const cublasStatus_t cb_cublas_rc_ = (call);                                                   \
    if (cb_cublas_rc_ != CUBLAS_STATUS_SUCCESS) {                                                  \
      ::cb::cuda::throw_cublas_error(cb_cublas_rc_, #call, __FILE__, __LINE__);                    \
    }                                                                                              \
  } while (0)
