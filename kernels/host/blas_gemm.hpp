#pragma once
// GEMM on the host through OpenBLAS, one BLAS thread per rank (a rank is one core; BLAS threads
// of their own would fight the other ranks for cores and measure the wrong thing).
#include <cstddef>
#include <string>

namespace cb {

// False when the build found no OpenBLAS: the gemm case is then skipped with that reason.
bool blas_available();
// OpenBLAS's build and core description (openblas_get_config), or why there is none.
std::string blas_description();
// openblas_set_num_threads(1), and OPENBLAS_NUM_THREADS=1 for any process started from here.
void blas_use_one_thread();

// 2mnk: one multiply and one add per term of every dot product.
double gemm_flops(double m, double n, double k);

// Row-major square C = A * B of n x n, float (is_double = false) or double.
void gemm_square(bool is_double, int n, const void* a, const void* b, void* c);

// Row-major float C (m x n, leading dimension ldc) = op(A) op(B), op(X) = X or its transpose,
// op(A) m x k and op(B) k x n: the rectangular and transposed products of a layer's forward and
// backward pass (the workload family).
void gemm_f32(bool transpose_a, bool transpose_b, int m, int n, int k, const float* a, int lda,
              const float* b, int ldb, float* c, int ldc);

// Inputs whose products and partial sums are exact in float for n <= 262144: multiples of 1/8 in
// [-1, 1], so every product is a multiple of 1/64 and every sum fits in 24 bits of mantissa. Any
// summation order gives the exact result, and C is checked for equality, not within a tolerance.
double gemm_a_value(std::size_t row, std::size_t col);
double gemm_b_value(std::size_t row, std::size_t col);
void fill_gemm_inputs(bool is_double, int n, void* a, void* b);

// Compares `samples` entries of C (corners, diagonal, and a spread of others) with a direct dot
// product; returns how many differ.
std::size_t count_gemm_errors(bool is_double, int n, const void* c, int samples);

} // namespace cb
