#pragma once
// GEMM through cuBLASLt: C (m x n) = A (m x k) * B (k x n), column-major, A stored transposed
// ("TN", the layout fp8 requires and the one every type supports), random data in [-1, 1).
// The algorithm is the fastest of cuBLASLt's heuristic candidates, timed once at set-up.
#include <cublasLt.h>

#include <functional>
#include <memory>
#include <string>

#include "cuda/cuda_handles.hpp"
#include "runtime/compute_kernels.hpp"

namespace cb::cuda {

// Types of one precision: inputs, output, compute and scale types, and the relative tolerance of
// a checked entry (against the sum of |a_i b_i| of its dot product).
struct GemmTypes {
  cudaDataType_t a, c, scale;
  cublasComputeType_t compute;
  DType input_dtype; // how A and B are stored, for filling and host checks
  DType output_dtype;
  double tolerance;
};
// bf16, fp16, tf32, fp8 (e4m3 in, bf16 out), float, double; nullptr for other names.
const GemmTypes* gemm_types(const std::string& precision);
// Empty when the precision runs on a device of compute capability cc (major*10+minor).
std::string gemm_unsupported_reason(const std::string& precision, int cc);
// Why cuBLASLt cannot run this shape in this precision, "" when it can: fp8 needs m, n and k to
// be multiples of 16 (16-byte aligned rows of one-byte elements, cublasLtMatmul's FP8 rules).
std::string gemm_shape_problem(const std::string& precision, int m, int n, int k);

class LtGemm : public TimedKernel {
public:
  LtGemm(const std::string& precision, int m, int n, int k, int device, cudaStream_t stream,
         const std::function<double(int, const std::function<void()>&)>& time_batch);
  ~LtGemm() override;
  double run(int k) override;
  double work_per_op() const override { return 2.0 * m_ * n_ * k_; }
  std::string verify() override;

private:
  void enqueue();
  std::string precision_;
  const GemmTypes* types_;
  long long m_, n_, k_;
  cudaStream_t stream_;
  std::function<double(int, const std::function<void()>&)> time_batch_;
  // cuBLASLt's handles, freed by a member so that a constructor that throws half-way frees them.
  struct Handles {
    Handles() = default;
    ~Handles();
    Handles(const Handles&) = delete;
    Handles& operator=(const Handles&) = delete;
    cublasLtHandle_t lt = nullptr;
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  };
  Handles h_;
  cublasLtMatmulAlgo_t algo_{};
  DeviceMemory a_, b_, c_, workspace_;
  double alpha_ = 1, beta_ = 0;
  float alpha_f_ = 1, beta_f_ = 0;
};

} // namespace cb::cuda
