#include <gtest/gtest.h>

#include "cuda/compute_kernels_cuda.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/datasheet.hpp"

namespace cb::cuda {
namespace {

TEST(CudaKernels, StreamKernelsMoveTheirBytesAndLeaveKnownValues) {
  CudaBackend backend(0);
  ComputeKernels& k = *backend.compute();
  for (DType t : {DType::f32, DType::f64}) {
    for (StreamKind kind : {StreamKind::copy, StreamKind::scale, StreamKind::add, StreamKind::triad,
                            StreamKind::read}) {
      ASSERT_EQ(k.why_unsupported_stream(kind, t), "");
      auto kernel = k.stream(kind, t, 256 << 20);
      EXPECT_DOUBLE_EQ(kernel->work_per_op(), stream_arrays_moved(kind) * double(256 << 20));
      const double s = kernel->run(3) / 3;
      EXPECT_GT(s, 0);
      EXPECT_EQ(kernel->verify(), "") << stream_kind_name(kind) << " " << dtype_name(t);
      std::printf("%-6s %-6s %8.1f GB/s\n", std::string(stream_kind_name(kind)).c_str(),
                  std::string(dtype_name(t)).c_str(), kernel->work_per_op() / s / 1e9);
    }
  }
  EXPECT_NE(k.why_unsupported_stream(StreamKind::copy, DType::i32), "");
  EXPECT_GE(k.default_array_bytes(), 1u << 30);
}

TEST(CudaKernels, FmaPeakConvergesToTwoInEveryType) {
  CudaBackend backend(0);
  ComputeKernels& k = *backend.compute();
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
    if (!k.why_unsupported_fma(t).empty())
      continue;
    auto kernel = k.fma_peak(t);
    const double s = kernel->run(2) / 2;
    EXPECT_EQ(kernel->verify(), "") << dtype_name(t);
    std::printf("fma %-6s %8.2f TFLOP/s\n", std::string(dtype_name(t)).c_str(),
                kernel->work_per_op() / s / 1e12);
  }
}

TEST(CudaKernels, GemmResultsMatchHostDotProducts) {
  CudaBackend backend(0);
  ComputeKernels& k = *backend.compute();
  for (const std::string precision : {"bf16", "fp16", "tf32", "fp8", "float", "double"}) {
    if (const auto why = k.why_unsupported_gemm(precision, 1024, 512, 2048); !why.empty()) {
      std::printf("gemm %s skipped: %s\n", precision.c_str(), why.c_str());
      continue;
    }
    auto kernel = k.gemm(precision, 1024, 512, 2048);
    EXPECT_DOUBLE_EQ(kernel->work_per_op(), 2.0 * 1024 * 512 * 2048);
    const double s = kernel->run(3) / 3;
    EXPECT_EQ(kernel->verify(), "") << precision;
    std::printf("gemm %-6s 1024x512x2048 %8.1f TFLOP/s\n", precision.c_str(),
                kernel->work_per_op() / s / 1e12);
  }
}

TEST(CudaKernels, PeaksComeFromTheDatasheetWhenTheDeviceIsListed) {
  CudaBackend backend(0);
  auto* k = static_cast<CudaComputeKernels*>(backend.compute());
  if (!k->datasheet())
    GTEST_SKIP() << backend.device()["name"] << " is not in the data-sheet table";
  EXPECT_GT(k->peak("memory_gbps"), 1000);
  EXPECT_GT(k->peak("gemm_bf16_tflops"), 100);
}

} // namespace
} // namespace cb::cuda
