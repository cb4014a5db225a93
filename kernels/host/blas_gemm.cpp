#include "host/blas_gemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <set>
#include <vector>

#include "core/error.hpp"

#if defined(CB_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace cb {

bool blas_available() {
#if defined(CB_HAVE_OPENBLAS)
  return true;
#else
  return false;
#endif
}

std::string blas_description() {
#if defined(CB_HAVE_OPENBLAS)
  return openblas_get_config();
#else
  return "clusterbench was built without OpenBLAS (pkg-config openblas not found)";
#endif
}

void blas_use_one_thread() {
  // Once per process: the ranks of a single-process run are threads, and setenv must not race
  // with another thread's getenv. The variable only reaches OpenBLAS in processes started after
  // this; the call is what sets this process, whose OpenBLAS read its environment when loaded.
  static std::once_flag once;
  std::call_once(once, [] {
    ::setenv("OPENBLAS_NUM_THREADS", "1", 1);
#if defined(CB_HAVE_OPENBLAS)
    openblas_set_num_threads(1);
#endif
  });
}

double gemm_flops(double m, double n, double k) {
  return 2.0 * m * n * k;
}

void gemm_square(bool is_double, int n, const void* a, const void* b, void* c) {
#if defined(CB_HAVE_OPENBLAS)
  if (is_double) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0,
                static_cast<const double*>(a), n, static_cast<const double*>(b), n, 0.0,
                static_cast<double*>(c), n);
  } else {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                static_cast<const float*>(a), n, static_cast<const float*>(b), n, 0.0f,
                static_cast<float*>(c), n);
  }
#else
  (void)is_double, (void)n, (void)a, (void)b, (void)c;
  CB_RUN_ERROR(blas_description());
#endif
}

void gemm_f32(bool transpose_a, bool transpose_b, int m, int n, int k, const float* a, int lda,
              const float* b, int ldb, float* c, int ldc) {
#if defined(CB_HAVE_OPENBLAS)
  cblas_sgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
              transpose_b ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
#else
  (void)transpose_a, (void)transpose_b, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b,
      (void)ldb, (void)c, (void)ldc;
  CB_RUN_ERROR(blas_description());
#endif
}

double gemm_a_value(std::size_t row, std::size_t col) {
  return static_cast<double>(static_cast<long>((row * 7 + col * 3) % 17) - 8) / 8.0;
}

double gemm_b_value(std::size_t row, std::size_t col) {
  return static_cast<double>(static_cast<long>((row * 5 + col * 11) % 13) - 6) / 8.0;
}

namespace {

template <typename T> void fill_typed(std::size_t n, T* a, T* b) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      a[i * n + j] = static_cast<T>(gemm_a_value(i, j));
      b[i * n + j] = static_cast<T>(gemm_b_value(i, j));
    }
  }
}

template <typename T> std::size_t count_typed(std::size_t n, const T* c, int samples) {
  // The corners, then diagonal entries and entries spread by large prime strides, each once.
  std::set<std::pair<std::size_t, std::size_t>> where{
      {0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
  const auto wanted = std::min<std::size_t>(static_cast<std::size_t>(samples), n * n);
  for (std::size_t s = 1; where.size() < wanted && s <= 4 * wanted; ++s) {
    where.emplace(s * 7919 % n, s * 7919 % n);
    if (where.size() < wanted)
      where.emplace(s * 104729 % n, s * 1299709 % n);
  }
  std::size_t wrong = 0;
  for (const auto& [i, j] : where) {
    double want = 0;
    for (std::size_t k = 0; k < n; ++k)
      want += gemm_a_value(i, k) * gemm_b_value(k, j);
    if (static_cast<double>(c[i * n + j]) != want)
      ++wrong;
  }
  return wrong;
}

} // namespace

void fill_gemm_inputs(bool is_double, int n, void* a, void* b) {
  const auto size = static_cast<std::size_t>(n);
  if (is_double) {
    fill_typed(size, static_cast<double*>(a), static_cast<double*>(b));
  } else {
    fill_typed(size, static_cast<float*>(a), static_cast<float*>(b));
  }
}

std::size_t count_gemm_errors(bool is_double, int n, const void* c, int samples) {
  const auto size = static_cast<std::size_t>(n);
  if (is_double)
    return count_typed(size, static_cast<const double*>(c), samples);
  return count_typed(size, static_cast<const float*>(c), samples);
}

} // namespace cb
