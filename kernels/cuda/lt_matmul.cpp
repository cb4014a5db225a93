#include "cuda/lt_matmul.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "cuda/cublaslt_on_demand.hpp"

namespace cb::cuda {

LtHandle::LtHandle() {
  if (const std::string problem = cublaslt_load_problem(); !problem.empty())
    CB_RUN_ERROR("cuBLASLt: " + problem);
  CB_CUBLAS(cublasLtCreate(&handle_));
}

LtHandle::~LtHandle() {
  if (handle_)
    cublasLtDestroy(handle_);
}

LtMatmul::LtMatmul(const LtHandle& handle, const MatmulShape& shape, std::size_t workspace_bytes,
                   int candidates)
    : handle_(handle.get()), shape_(shape), workspace_bytes_(workspace_bytes) {
  CB_CUBLAS(cublasLtMatmulDescCreate(&d_.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t ta = shape.transa ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t tb = shape.transb ? CUBLAS_OP_T : CUBLAS_OP_N;
  CB_CUBLAS(cublasLtMatmulDescSetAttribute(d_.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
  CB_CUBLAS(cublasLtMatmulDescSetAttribute(d_.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
  // As stored: op(A) is m x k, so A is k x m when transposed; op(B) is k x n.
  CB_CUBLAS(cublasLtMatrixLayoutCreate(&d_.a, shape.in, shape.transa ? shape.k : shape.m,
                                       shape.transa ? shape.m : shape.k, shape.lda));
  CB_CUBLAS(cublasLtMatrixLayoutCreate(&d_.b, shape.in, shape.transb ? shape.n : shape.k,
                                       shape.transb ? shape.k : shape.n, shape.ldb));
  CB_CUBLAS(cublasLtMatrixLayoutCreate(&d_.c, shape.out, shape.m, shape.n, shape.ldc));

  cublasLtMatmulPreference_t preference = nullptr;
  CB_CUBLAS(cublasLtMatmulPreferenceCreate(&preference));
  const cublasStatus_t set = cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
      sizeof workspace_bytes);
  if (set != CUBLAS_STATUS_SUCCESS) {
    cublasLtMatmulPreferenceDestroy(preference);
    CB_CUBLAS(set);
  }
  std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<std::size_t>(candidates));
  int found = 0;
  const cublasStatus_t heuristic =
      cublasLtMatmulAlgoGetHeuristic(handle_, d_.op, d_.a, d_.b, d_.c, d_.c, preference, candidates,
                                     results.data(), &found);
  cublasLtMatmulPreferenceDestroy(preference);
  // NOT_SUPPORTED is cuBLASLt's "no algorithm fits": said below with the shape, not as a status.
  if (heuristic == CUBLAS_STATUS_NOT_SUPPORTED)
    found = 0;
  else
    CB_CUBLAS(heuristic);
  for (int i = 0; i < found; ++i) {
    if (results[static_cast<std::size_t>(i)].state == CUBLAS_STATUS_SUCCESS)
      algorithms_.push_back(results[static_cast<std::size_t>(i)].algo);
  }
  if (algorithms_.empty()) {
    CB_RUN_ERROR("cuBLASLt has no algorithm for a " + std::to_string(shape.m) + "x" +
                 std::to_string(shape.n) + "x" + std::to_string(shape.k) + " matmul (" +
                 (shape.transa ? "T" : "N") + (shape.transb ? "T" : "N") + ")");
  }
}

LtMatmul::Descriptors::~Descriptors() {
  if (c)
    cublasLtMatrixLayoutDestroy(c);
  if (b)
    cublasLtMatrixLayoutDestroy(b);
  if (a)
    cublasLtMatrixLayoutDestroy(a);
  if (op)
    cublasLtMatmulDescDestroy(op);
}

void LtMatmul::use(int i) {
  used_ = std::clamp(i, 0, candidates() - 1);
}

void LtMatmul::enqueue(const void* a, const void* b, void* c, float alpha, float beta,
                       void* workspace, cudaStream_t stream) const {
  CB_CUBLAS(cublasLtMatmul(handle_, d_.op, &alpha, a, d_.a, b, d_.b, &beta, c, d_.c, c, d_.c,
                           &algorithms_[static_cast<std::size_t>(used_)], workspace,
                           workspace_bytes_, stream));
}

double LtMatmul::time_candidate(int i, const void* a, const void* b, void* c, void* workspace,
                                cudaStream_t stream) {
  const int previous = used_;
  use(i);
  constexpr int kRuns = 3;
  Event start, stop;
  enqueue(a, b, c, 1, 0, workspace, stream); // kernel load, clocks
  start.record(stream);
  for (int r = 0; r < kRuns; ++r)
    enqueue(a, b, c, 1, 0, workspace, stream);
  stop.record(stream);
  const double seconds = elapsed_seconds(start, stop) / kRuns;
  use(previous);
  return seconds;
}

} // namespace cb::cuda
