#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "host/blas_gemm.hpp"

namespace cb {
namespace {

TEST(GemmAccounting, TwoMnkFlops) {
  EXPECT_EQ(gemm_flops(1024, 1024, 1024), 2.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(gemm_flops(2, 3, 4), 48.0);
}

TEST(GemmInputs, AreSmallMultiplesOfAnEighth) {
  for (std::size_t i = 0; i < 50; ++i) {
    for (std::size_t j = 0; j < 50; ++j) {
      for (double v : {gemm_a_value(i, j), gemm_b_value(i, j)}) {
        EXPECT_LE(std::fabs(v), 1.0);
        EXPECT_EQ(v * 8, std::round(v * 8));
      }
    }
  }
}

template <typename T> void check_gemm(bool is_double) {
  if (!blas_available())
    GTEST_SKIP() << blas_description();
  blas_use_one_thread();
  const int n = 37;
  std::vector<T> a(n * n), b(n * n), c(n * n, T(-1));
  fill_gemm_inputs(is_double, n, a.data(), b.data());
  gemm_square(is_double, n, a.data(), b.data(), c.data());
  EXPECT_EQ(count_gemm_errors(is_double, n, c.data(), 64), 0u);
  // A wrong entry among the checked ones (a corner is always checked) is caught.
  c[0] += T(0.125);
  c[n * n - 1] = T(1e9);
  EXPECT_EQ(count_gemm_errors(is_double, n, c.data(), 64), 2u);

  // 3 x 3 has fewer distinct entries than samples asked for: the sampling still ends.
  std::vector<T> a3(9), b3(9), c3(9);
  fill_gemm_inputs(is_double, 3, a3.data(), b3.data());
  gemm_square(is_double, 3, a3.data(), b3.data(), c3.data());
  EXPECT_EQ(count_gemm_errors(is_double, 3, c3.data(), 64), 0u);
}

TEST(Gemm, DoubleMatchesDirectDotProducts) {
  check_gemm<double>(true);
}
TEST(Gemm, FloatMatchesDirectDotProductsExactly) {
  check_gemm<float>(false);
}

TEST(Gemm, UsesOneBlasThread) {
  blas_use_one_thread();
  EXPECT_STREQ(std::getenv("OPENBLAS_NUM_THREADS"), "1");
  EXPECT_FALSE(blas_description().empty());
}

} // namespace
} // namespace cb
