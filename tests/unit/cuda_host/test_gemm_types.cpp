#include <gtest/gtest.h>

#include "cuda/device_kernels.hpp"
#include "cuda/gemm_lt.hpp"

namespace cb::cuda {
namespace {

TEST(GemmTypes, PrecisionsMapToCublasLtTypes) {
  EXPECT_EQ(gemm_types("bf16")->a, CUDA_R_16BF);
  EXPECT_EQ(gemm_types("bf16")->compute, CUBLAS_COMPUTE_32F);
  EXPECT_EQ(gemm_types("fp16")->a, CUDA_R_16F);
  EXPECT_EQ(gemm_types("tf32")->a, CUDA_R_32F);
  EXPECT_EQ(gemm_types("tf32")->compute, CUBLAS_COMPUTE_32F_FAST_TF32);
  EXPECT_EQ(gemm_types("fp8")->a, CUDA_R_8F_E4M3);
  EXPECT_EQ(gemm_types("fp8")->c, CUDA_R_16BF); // fp8 inputs, bf16 output
  EXPECT_EQ(gemm_types("double")->scale, CUDA_R_64F);
  EXPECT_EQ(gemm_types("int8"), nullptr);
}

TEST(GemmTypes, DeviceRequirements) {
  EXPECT_EQ(gemm_unsupported_reason("bf16", 90), "");
  EXPECT_EQ(gemm_unsupported_reason("fp8", 90), "");
  EXPECT_EQ(gemm_unsupported_reason("fp8", 89), "");
  EXPECT_NE(gemm_unsupported_reason("fp8", 80), ""); // A100: no fp8 tensor cores
  EXPECT_NE(gemm_unsupported_reason("bf16", 75), "");
  EXPECT_EQ(gemm_unsupported_reason("fp16", 75), "");
  EXPECT_NE(gemm_unsupported_reason("int8", 90).find("unknown GEMM precision"), std::string::npos);
}

TEST(GemmTypes, Fp8NeedsDimensionsThatAreMultiplesOf16) {
  EXPECT_EQ(gemm_shape_problem("fp8", 8192, 8192, 8192), "");
  EXPECT_EQ(gemm_shape_problem("fp8", 16, 4096, 12288), "");
  EXPECT_NE(gemm_shape_problem("fp8", 1000, 1024, 1024).find("multiples of 16"), std::string::npos);
  EXPECT_NE(gemm_shape_problem("fp8", 1024, 1024, 1000), "");
  EXPECT_EQ(gemm_shape_problem("bf16", 1000, 1000, 1000), ""); // other types take any shape
  EXPECT_NE(gemm_shape_problem("bf16", 0, 16, 16), "");
}

TEST(GemmTypes, FmaCountsTwoLanesForHalfPairs) {
  EXPECT_DOUBLE_EQ(fma_count(DType::f32, 10, 2, 32), 2.0 * 32 * kFmaChains * 10);
  EXPECT_DOUBLE_EQ(fma_count(DType::f64, 10, 2, 32), 2.0 * 32 * kFmaChains * 10);
  EXPECT_DOUBLE_EQ(fma_count(DType::f16, 10, 2, 32), 2.0 * 32 * kFmaChains * 10 * 2);
  EXPECT_DOUBLE_EQ(fma_count(DType::bf16, 10, 2, 32), 2.0 * 32 * kFmaChains * 10 * 2);
}

} // namespace
} // namespace cb::cuda
