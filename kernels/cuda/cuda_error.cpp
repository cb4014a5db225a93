#include "cuda/cuda_error.hpp"

#include "core/error.hpp"

namespace cb::cuda {

std::string cuda_error_text(cudaError_t rc) {
  return std::string(cudaGetErrorName(rc)) + ": " + cudaGetErrorString(rc);
}

std::string cublas_status_text(cublasStatus_t rc) {
  switch (rc) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "CUBLAS_STATUS_MAPPING_ERROR";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "cublasStatus " + std::to_string(static_cast<int>(rc));
}

void throw_cuda_error(cudaError_t rc, const char* call, const char* file, int line) {
  // Clear a non-sticky error so a later, unrelated call does not report it again.
  cudaGetLastError();
  throw_run_error(file, line, std::string(call) + " failed: " + cuda_error_text(rc));
}

void throw_cublas_error(cublasStatus_t rc, const char* call, const char* file, int line) {
  throw_run_error(file, line, std::string(call) + " failed: " + cublas_status_text(rc));
}

} // namespace cb::cuda
