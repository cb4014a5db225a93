#include <gtest/gtest.h>

#include "cuda/compute_kernels_cuda.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/datasheet.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/lt_matmul.hpp"
#include "runtime/element_codec.hpp"

#include <cmath>
#include <vector>

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

// The training step's three GEMM layouts (bench/cuda/data_parallel_step_cuda.cpp) on sub-matrices
// (ld larger than the rows), every candidate cuBLASLt offers, against host dot products.
TEST(CudaKernels, LtMatmulOfEveryStepLayoutMatchesTheHost) {
  CudaBackend backend(0);
  const cudaStream_t stream = backend.stream();
  const int m = 96, n = 64, k = 80, ld = 128;
  DeviceMemory a(ld * 128 * 2), b(ld * 128 * 2), c(ld * 128 * 4), workspace(32 << 20);
  launch_fill_scaled_bf16(a.get(), ld * 128, 1, 1.0f, stream);
  launch_fill_scaled_bf16(b.get(), ld * 128, 2, 0.5f, stream);
  std::vector<unsigned short> ha(ld * 128), hb(ld * 128);
  CB_CUDA(cudaMemcpyAsync(ha.data(), a.get(), ha.size() * 2, cudaMemcpyDeviceToHost, stream));
  CB_CUDA(cudaMemcpyAsync(hb.data(), b.get(), hb.size() * 2, cudaMemcpyDeviceToHost, stream));
  backend.synchronize();
  auto value = [](const std::vector<unsigned short>& v, long long i) {
    return decode_element(DType::bf16, &v[static_cast<std::size_t>(i)]);
  };
  LtHandle handle;
  for (const auto& [transa, transb] : {std::pair{true, false}, {false, false}, {false, true}}) {
    for (const cudaDataType_t out : {CUDA_R_16BF, CUDA_R_32F}) {
      const MatmulShape s{transa, transb, m, n, k, ld, ld, ld, CUDA_R_16BF, out};
      LtMatmul matmul(handle, s, 32 << 20);
      ASSERT_GT(matmul.candidates(), 0);
      for (int cand = 0; cand < matmul.candidates(); ++cand) {
        EXPECT_GT(matmul.time_candidate(cand, a.get(), b.get(), c.get(), workspace.get(), stream),
                  0);
        const std::size_t size = out == CUDA_R_32F ? 4 : 2;
        std::vector<unsigned char> hc(static_cast<std::size_t>(ld) * n * size);
        CB_CUDA(cudaMemcpy(hc.data(), c.get(), hc.size(), cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < n; ++j) {
            double want = 0, magnitude = 0;
            for (int p = 0; p < k; ++p) {
              const double x = value(ha, transa ? i * ld + p : p * ld + i);
              const double y = value(hb, transb ? p * ld + j : j * ld + p);
              want += x * y;
              magnitude += std::fabs(x * y);
            }
            const double got = decode_element(out == CUDA_R_32F ? DType::f32 : DType::bf16,
                                              &hc[(static_cast<std::size_t>(j) * ld + i) * size]);
            wrong += std::fabs(got - want) <= (out == CUDA_R_32F ? 1e-5 : 1.0 / 128) * magnitude
                         ? 0
                         : 1;
          }
        }
        EXPECT_EQ(wrong, 0) << (transa ? "T" : "N") << (transb ? "T" : "N") << " out "
                            << static_cast<int>(out) << " candidate " << cand;
      }
    }
  }
}

TEST(CudaKernels, StepKernelsScaleExactlyAndUpdateTheWeights) {
  CudaBackend backend(0);
  const cudaStream_t stream = backend.stream();
  const std::size_t n = 1 << 20;
  DeviceMemory one(n * 2), eight(n * 2), g(n * 4);
  launch_fill_scaled_bf16(one.get(), n, 7, 1.0f / 3000, stream);
  launch_fill_scaled_bf16(eight.get(), n, 7, 8.0f / 3000, stream);
  launch_fill_constant(DType::f32, g.get(), n, 0.5, stream);
  std::vector<unsigned short> h1(n), h8(n), after(n);
  CB_CUDA(cudaMemcpyAsync(h1.data(), one.get(), n * 2, cudaMemcpyDeviceToHost, stream));
  CB_CUDA(cudaMemcpyAsync(h8.data(), eight.get(), n * 2, cudaMemcpyDeviceToHost, stream));
  launch_sgd_update_bf16(one.get(), static_cast<const float*>(g.get()), n, -2e-3f, stream);
  CB_CUDA(cudaMemcpyAsync(after.data(), one.get(), n * 2, cudaMemcpyDeviceToHost, stream));
  backend.synchronize();
  std::size_t not_eight = 0, not_updated = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = decode_element(DType::bf16, &h1[i]);
    not_eight += decode_element(DType::bf16, &h8[i]) == 8 * x ? 0 : 1;
    const double want = x - 1e-3;
    not_updated += std::fabs(decode_element(DType::bf16, &after[i]) - want) <=
                           std::fabs(want) / 128 + 1e-9
                       ? 0
                       : 1;
  }
  EXPECT_EQ(not_eight, 0u); // a power-of-two scale gives exactly that multiple
  EXPECT_EQ(not_updated, 0u);
}

} // namespace
} // namespace cb::cuda
