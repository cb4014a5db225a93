#include "cuda/gemm_lt.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/error.hpp"
#include "cuda/cublaslt_on_demand.hpp"
#include "cuda/device_kernels.hpp"
#include "runtime/element_codec.hpp"

namespace cb::cuda {
namespace {

constexpr std::size_t kWorkspaceBytes = 64u << 20;
constexpr int kCandidates = 8;

} // namespace

const GemmTypes* gemm_types(const std::string& precision) {
  // Tolerances: the output type's rounding (bf16 2^-8, fp16 2^-11) plus fp32 accumulation; tf32
  // rounds the inputs to 10 mantissa bits inside the tensor cores.
  static const GemmTypes bf16{CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                              DType::bf16, DType::bf16, 1.0 / 128};
  static const GemmTypes fp16{CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                              DType::f16, DType::f16, 1.0 / 1024};
  static const GemmTypes tf32{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32,
                              DType::f32, DType::f32, 1.0 / 256};
  static const GemmTypes fp8{CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                             DType::f8e4m3,  DType::bf16, 1.0 / 128};
  static const GemmTypes fp32{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                              DType::f32, DType::f32, 1e-5};
  static const GemmTypes fp64{CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F,
                              DType::f64, DType::f64, 1e-12};
  if (precision == "bf16")
    return &bf16;
  if (precision == "fp16")
    return &fp16;
  if (precision == "tf32")
    return &tf32;
  if (precision == "fp8")
    return &fp8;
  if (precision == "float")
    return &fp32;
  if (precision == "double")
    return &fp64;
  return nullptr;
}

std::string gemm_unsupported_reason(const std::string& precision, int cc) {
  if (!gemm_types(precision)) {
    return "unknown GEMM precision '" + precision + "' (bf16, fp16, tf32, fp8, float, double)";
  }
  if ((precision == "bf16" || precision == "tf32") && cc < 80) {
    return precision + " tensor-core GEMM needs compute capability 8.0 or later";
  }
  if (precision == "fp8" && cc < 89) {
    return "fp8 (e4m3) GEMM needs compute capability 8.9 or later (Ada, Hopper, Blackwell)";
  }
  return {};
}

std::string gemm_shape_problem(const std::string& precision, int m, int n, int k) {
  if (m < 1 || n < 1 || k < 1)
    return "GEMM dimensions must be at least 1";
  if (precision == "fp8" && (m % 16 != 0 || n % 16 != 0 || k % 16 != 0)) {
    return "fp8 GEMM needs m, n and k that are multiples of 16 (cuBLASLt's FP8 alignment); got " +
           std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  }
  return {};
}

LtGemm::LtGemm(const std::string& precision, int m, int n, int k, int device, cudaStream_t stream,
               const std::function<double(int, const std::function<void()>&)>& time_batch)
    : precision_(precision), types_(gemm_types(precision)), m_(m), n_(n), k_(k), stream_(stream),
      time_batch_(time_batch) {
  if (!types_)
    CB_RUN_ERROR(gemm_unsupported_reason(precision, 0));
  DeviceScope scope(device);
  const std::size_t in_size = dtype_size(types_->input_dtype);
  const std::size_t out_size = dtype_size(types_->output_dtype);
  // Element counts in size_t: k * m overflows int from 46341^2 on.
  const std::size_t a_count = static_cast<std::size_t>(k_) * static_cast<std::size_t>(m_);
  const std::size_t b_count = static_cast<std::size_t>(k_) * static_cast<std::size_t>(n_);
  const std::size_t c_count = static_cast<std::size_t>(m_) * static_cast<std::size_t>(n_);
  a_ = DeviceMemory(a_count * in_size);
  b_ = DeviceMemory(b_count * in_size);
  c_ = DeviceMemory(c_count * out_size);
  workspace_ = DeviceMemory(kWorkspaceBytes);
  launch_fill_uniform(types_->input_dtype, a_.get(), a_count, 1, stream_);
  launch_fill_uniform(types_->input_dtype, b_.get(), b_count, 2, stream_);
  launch_fill_constant(types_->output_dtype, c_.get(), c_count, 0, stream_);

  if (const std::string problem = cublaslt_load_problem(); !problem.empty())
    CB_RUN_ERROR("cuBLASLt: " + problem);
  CB_CUBLAS(cublasLtCreate(&h_.lt));
  CB_CUBLAS(cublasLtMatmulDescCreate(&h_.op, types_->compute, types_->scale));
  const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
  CB_CUBLAS(
      cublasLtMatmulDescSetAttribute(h_.op, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa));
  CB_CUBLAS(
      cublasLtMatmulDescSetAttribute(h_.op, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb));
  CB_CUBLAS(cublasLtMatrixLayoutCreate(&h_.a, types_->a, k_, m_, k_));
  CB_CUBLAS(cublasLtMatrixLayoutCreate(&h_.b, types_->a, k_, n_, k_));
  CB_CUBLAS(cublasLtMatrixLayoutCreate(&h_.c, types_->c, m_, n_, m_));

  cublasLtMatmulPreference_t preference = nullptr;
  CB_CUBLAS(cublasLtMatmulPreferenceCreate(&preference));
  const std::size_t workspace = kWorkspaceBytes;
  const cublasStatus_t set = cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace);
  if (set != CUBLAS_STATUS_SUCCESS) {
    cublasLtMatmulPreferenceDestroy(preference);
    CB_CUBLAS(set);
  }
  cublasLtMatmulHeuristicResult_t results[kCandidates] = {};
  int found = 0;
  const cublasStatus_t heuristic = cublasLtMatmulAlgoGetHeuristic(
      h_.lt, h_.op, h_.a, h_.b, h_.c, h_.c, preference, kCandidates, results, &found);
  cublasLtMatmulPreferenceDestroy(preference);
  // NOT_SUPPORTED is cuBLASLt's "no algorithm fits": said below with the shape, not as a status.
  if (heuristic == CUBLAS_STATUS_NOT_SUPPORTED)
    found = 0;
  else
    CB_CUBLAS(heuristic);
  if (found == 0) {
    CB_RUN_ERROR("cuBLASLt has no algorithm for a " + precision + " GEMM of " + std::to_string(m) +
                 "x" + std::to_string(n) + "x" + std::to_string(k));
  }
  // Keep the fastest candidate of a short trial (cuBLASLt's first choice is not always the best).
  int best_index = -1;
  double best = 1e300;
  for (int i = 0; i < found; ++i) {
    if (results[i].state != CUBLAS_STATUS_SUCCESS)
      continue;
    algo_ = results[i].algo;
    enqueue(); // warm-up: kernel load, clocks
    const double t = time_batch_(3, [this] { enqueue(); });
    if (t < best) {
      best = t;
      best_index = i;
    }
  }
  if (best_index < 0) {
    CB_RUN_ERROR("cuBLASLt offered no usable algorithm for a " + precision + " GEMM of " +
                 std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
  }
  algo_ = results[best_index].algo;
}

LtGemm::Handles::~Handles() {
  if (c)
    cublasLtMatrixLayoutDestroy(c);
  if (b)
    cublasLtMatrixLayoutDestroy(b);
  if (a)
    cublasLtMatrixLayoutDestroy(a);
  if (op)
    cublasLtMatmulDescDestroy(op);
  if (lt)
    cublasLtDestroy(lt);
}

LtGemm::~LtGemm() {
  // The buffers and handles must outlive the GEMMs still queued.
  cudaStreamSynchronize(stream_);
}

void LtGemm::enqueue() {
  const bool wide = types_->scale == CUDA_R_64F;
  const void* alpha = wide ? static_cast<const void*>(&alpha_) : &alpha_f_;
  const void* beta = wide ? static_cast<const void*>(&beta_) : &beta_f_;
  CB_CUBLAS(cublasLtMatmul(h_.lt, h_.op, alpha, a_.get(), h_.a, b_.get(), h_.b, beta, c_.get(),
                           h_.c, c_.get(), h_.c, &algo_, workspace_.get(), kWorkspaceBytes,
                           stream_));
}

double LtGemm::run(int k) {
  return time_batch_(k, [this] { enqueue(); });
}

std::string LtGemm::verify() {
  CB_CUDA(cudaStreamSynchronize(stream_));
  const std::size_t in_size = dtype_size(types_->input_dtype);
  const std::size_t out_size = dtype_size(types_->output_dtype);
  std::vector<unsigned char> column_a(static_cast<std::size_t>(k_) * in_size);
  std::vector<unsigned char> column_b(column_a.size());
  unsigned char c_value[8] = {};
  int wrong = 0, checked = 0;
  std::string first_wrong;
  // A spread of entries: corners, the middle and a diagonal walk.
  for (int s = 0; s < 8; ++s) {
    const long long i = (m_ - 1) * s / 7, j = (n_ - 1) * ((s * 3) % 8) / 7;
    CB_CUDA(cudaMemcpy(column_a.data(), static_cast<const char*>(a_.get()) + i * k_ * in_size,
                       column_a.size(), cudaMemcpyDeviceToHost));
    CB_CUDA(cudaMemcpy(column_b.data(), static_cast<const char*>(b_.get()) + j * k_ * in_size,
                       column_b.size(), cudaMemcpyDeviceToHost));
    CB_CUDA(cudaMemcpy(c_value, static_cast<const char*>(c_.get()) + (j * m_ + i) * out_size,
                       out_size, cudaMemcpyDeviceToHost));
    double want = 0, magnitude = 0;
    for (long long p = 0; p < k_; ++p) {
      const double a = decode_element(types_->input_dtype, &column_a[p * in_size]);
      const double b = decode_element(types_->input_dtype, &column_b[p * in_size]);
      want += a * b;
      magnitude += std::fabs(a * b);
    }
    const double got = decode_element(types_->output_dtype, c_value);
    ++checked;
    if (!(std::fabs(got - want) <= types_->tolerance * magnitude)) {
      ++wrong;
      if (first_wrong.empty()) {
        char text[160];
        std::snprintf(text, sizeof text, "C(%lld,%lld) = %.6g, expected %.6g", i, j, got, want);
        first_wrong = text;
      }
    }
  }
  if (wrong == 0)
    return {};
  return std::to_string(wrong) + " of " + std::to_string(checked) + " checked entries wrong, " +
         first_wrong;
}

} // namespace cb::cuda
