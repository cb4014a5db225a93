#pragma once
// One cuBLASLt matmul on the caller's buffers, column-major: C (m x n) = op(A) op(B), A and B of
// one type, C of another or the same, float accumulation and scale, leading dimensions as stored
// (a sub-matrix is a pointer and a larger ld). The algorithm is one of cuBLASLt's heuristic
// candidates, picked by the caller (time_candidate(), use()): a job picks on one rank and every
// rank uses that one, as the same algorithm gives the same bits from the same inputs.
#include <cublasLt.h>

#include <cstddef>
#include <vector>

#include "cuda/cuda_handles.hpp"

namespace cb::cuda {

struct MatmulShape {
  bool transa = false, transb = false;
  int m = 0, n = 0, k = 0;
  long long lda = 0, ldb = 0, ldc = 0;
  cudaDataType_t in = CUDA_R_16BF, out = CUDA_R_16BF;

  double flops() const { return 2.0 * m * static_cast<double>(n) * k; }
};

// A cuBLASLt handle (cuBLASLt is loaded on first use: cublaslt_on_demand.hpp).
class LtHandle {
public:
  LtHandle();
  ~LtHandle();
  LtHandle(const LtHandle&) = delete;
  LtHandle& operator=(const LtHandle&) = delete;
  cublasLtHandle_t get() const { return handle_; }

private:
  cublasLtHandle_t handle_ = nullptr;
};

class LtMatmul {
public:
  // Up to `candidates` of cuBLASLt's heuristic algorithms for the shape within workspace_bytes;
  // RunError when it has none.
  LtMatmul(const LtHandle& handle, const MatmulShape& shape, std::size_t workspace_bytes,
           int candidates = 8);
  LtMatmul(const LtMatmul&) = delete;
  LtMatmul& operator=(const LtMatmul&) = delete;

  const MatmulShape& shape() const { return shape_; }
  int candidates() const { return static_cast<int>(algorithms_.size()); }
  // Seconds per run of candidate i on these buffers: one warm-up run, then the mean of three.
  double time_candidate(int i, const void* a, const void* b, void* c, void* workspace,
                        cudaStream_t stream);
  // The candidate enqueue() runs from now on (clamped to the candidates there are).
  void use(int i);
  int used() const { return used_; }
  void enqueue(const void* a, const void* b, void* c, float alpha, float beta, void* workspace,
               cudaStream_t stream) const;

private:
  cublasLtHandle_t handle_;
  MatmulShape shape_;
  std::size_t workspace_bytes_;
  // The descriptors, freed by a member so that a constructor that throws half-way frees them.
  struct Descriptors {
    Descriptors() = default;
    ~Descriptors();
    Descriptors(const Descriptors&) = delete;
    Descriptors& operator=(const Descriptors&) = delete;
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  };
  Descriptors d_;
  std::vector<cublasLtMatmulAlgo_t> algorithms_;
  int used_ = 0;
};

} // namespace cb::cuda
