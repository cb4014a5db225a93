#include <gtest/gtest.h>

#include "cuda/datasheet.hpp"

namespace cb::cuda {
namespace {

TEST(Datasheet, MatchesDriverNamesOfTheListedParts) {
  ASSERT_NE(find_datasheet("NVIDIA H200"), nullptr);
  EXPECT_EQ(find_datasheet("NVIDIA H200")->part, "H200 SXM");
  EXPECT_EQ(find_datasheet("NVIDIA H100 80GB HBM3")->part, "H100 SXM");
  EXPECT_EQ(find_datasheet("NVIDIA H100 SXM5 80GB")->part, "H100 SXM");
  EXPECT_EQ(find_datasheet("NVIDIA H100 PCIe")->part, "H100 PCIe");
  EXPECT_EQ(find_datasheet("NVIDIA A100-SXM4-80GB")->part, "A100 SXM 80GB");
  EXPECT_EQ(find_datasheet("NVIDIA B200")->part, "B200");
  EXPECT_EQ(find_datasheet("nvidia h200")->part, "H200 SXM"); // case does not matter
}

TEST(Datasheet, RefusesVariantsWithOtherPeaks) {
  EXPECT_EQ(find_datasheet("NVIDIA H200 NVL"), nullptr);
  EXPECT_EQ(find_datasheet("NVIDIA H100 NVL"), nullptr);
  EXPECT_EQ(find_datasheet("NVIDIA A100-SXM4-40GB"), nullptr);
  EXPECT_EQ(find_datasheet("NVIDIA A100 80GB PCIe"), nullptr);
  EXPECT_EQ(find_datasheet("NVIDIA GeForce RTX 4090"), nullptr);
  EXPECT_EQ(find_datasheet(""), nullptr);
}

TEST(Datasheet, FiguresFromReference) {
  const DatasheetEntry& h200 = *find_datasheet("NVIDIA H200");
  EXPECT_DOUBLE_EQ(datasheet_figure(h200, "memory_gbps"), 4800);
  EXPECT_DOUBLE_EQ(datasheet_figure(h200, "gemm_bf16_tflops"), 989);
  EXPECT_DOUBLE_EQ(datasheet_figure(h200, "gemm_fp16_tflops"), 989);
  EXPECT_DOUBLE_EQ(datasheet_figure(h200, "gemm_fp8_tflops"), 1979);
  EXPECT_DOUBLE_EQ(datasheet_figure(h200, "gemm_tf32_tflops"), 495);
  EXPECT_DOUBLE_EQ(datasheet_figure(h200, "nvlink_gbps"), 900);
  const DatasheetEntry& h100 = *find_datasheet("NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(datasheet_figure(h100, "memory_gbps"), 3350);
  EXPECT_DOUBLE_EQ(datasheet_figure(h100, "gemm_bf16_tflops"), 989.4);
  const DatasheetEntry& a100 = *find_datasheet("NVIDIA A100-SXM4-80GB");
  EXPECT_DOUBLE_EQ(datasheet_figure(a100, "memory_gbps"), 2039);
  EXPECT_DOUBLE_EQ(datasheet_figure(a100, "gemm_fp8_tflops"), 0); // no fp8 tensor cores
  // CUDA-core half pairs: bf16 runs at half the fp16 rate on A100, the same rate on Hopper.
  EXPECT_DOUBLE_EQ(datasheet_figure(a100, "fma_fp16_tflops"), 78);
  EXPECT_DOUBLE_EQ(datasheet_figure(a100, "fma_bf16_tflops"), 39);
  EXPECT_DOUBLE_EQ(datasheet_figure(h200, "fma_bf16_tflops"), 133.8);
  EXPECT_DOUBLE_EQ(datasheet_figure(h100, "fma_bf16_tflops"), 133.8);
  const DatasheetEntry& b200 = *find_datasheet("NVIDIA B200");
  EXPECT_DOUBLE_EQ(datasheet_figure(b200, "memory_gbps"), 8000);
  EXPECT_DOUBLE_EQ(datasheet_figure(b200, "gemm_bf16_tflops"), 2250);
  EXPECT_DOUBLE_EQ(datasheet_figure(b200, "unknown_figure"), 0);
}

TEST(Datasheet, EveryEntryCarriesSourcesAndSaneFigures) {
  for (const auto& e : datasheet_table()) {
    EXPECT_NE(e.sources.find("data sheet"), std::string_view::npos) << e.part;
    EXPECT_GT(e.memory_gbps, 1000) << e.part;
    EXPECT_GT(e.gemm_bf16_tflops, e.gemm_tf32_tflops) << e.part; // tf32 runs at half bf16
    EXPECT_GT(e.fma_fp32_tflops, e.fma_fp64_tflops) << e.part;
    if (e.gemm_fp8_tflops > 0) {
      EXPECT_NEAR(e.gemm_fp8_tflops, 2 * e.gemm_bf16_tflops, 1) << e.part;
    }
  }
}

} // namespace
} // namespace cb::cuda
