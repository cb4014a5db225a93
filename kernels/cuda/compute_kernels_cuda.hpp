#pragma once
// The compute family's kernels on a GPU (runtime/compute_kernels.hpp): HBM stream kernels, FMA
// peak on the CUDA cores, GEMM through cuBLASLt, and the data-sheet peaks of the device.
#include <string>

#include "runtime/compute_kernels.hpp"

namespace cb::cuda {

class CudaBackend;
struct DatasheetEntry;

class CudaComputeKernels : public ComputeKernels {
public:
  explicit CudaComputeKernels(CudaBackend& backend);
  std::string why_unsupported_stream(StreamKind kind, DType t) const override;
  std::string why_unsupported_fma(DType t) const override;
  std::string why_unsupported_gemm(const std::string& precision, int m, int n,
                                   int k) const override;
  std::unique_ptr<TimedKernel> stream(StreamKind kind, DType t, std::size_t array_bytes) override;
  std::unique_ptr<TimedKernel> fma_peak(DType t) override;
  std::unique_ptr<TimedKernel> gemm(const std::string& precision, int m, int n, int k) override;
  // 8 x the L2 cache, at least 1 GiB: no pass can be served from cache.
  std::size_t default_array_bytes() const override;
  double peak(const std::string& figure) const override;
  const DatasheetEntry* datasheet() const { return datasheet_; }

private:
  CudaBackend& backend_;
  int compute_capability_ = 0; // major * 10 + minor
  std::size_t l2_bytes_ = 0;
  const DatasheetEntry* datasheet_ = nullptr;
};

// The array size rule alone: max(8 x l2, 1 GiB), rounded up to a whole MiB.
std::size_t stream_array_bytes_for(std::size_t l2_bytes);

} // namespace cb::cuda
