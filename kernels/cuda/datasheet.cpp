#include "cuda/datasheet.hpp"

#include <algorithm>
#include <cctype>

namespace cb::cuda {
namespace {

constexpr std::string_view kH100Sources =
    "NVIDIA H100 Tensor Core GPU data sheet (SXM column: 3.35 TB/s, BF16 989.4, FP8 1978.9, TF32 "
    "494.7 TFLOP/s dense, FP32 67, FP64 34 TFLOP/s, NVLink 900 GB/s, PCIe Gen5); FP16 and BF16 "
    "non-tensor 133.8 TFLOP/s from the NVIDIA H100 Tensor Core GPU Architecture whitepaper (SXM5)";

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool has(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

} // namespace

const std::vector<DatasheetEntry>& datasheet_table() {
  static const std::vector<DatasheetEntry> table = {
      {"A100 SXM 80GB", 80, 2039, 600, 31.5, 312, 0, 156, 19.5, 9.7, 78, 39,
       "NVIDIA A100 Tensor Core GPU data sheet (SXM 80GB column: 2,039 GB/s, BF16 312, TF32 156 "
       "TFLOP/s dense, FP32 19.5, FP64 9.7 TFLOP/s, NVLink 600 GB/s, PCIe Gen4); FP16 non-tensor "
       "78 and BF16 non-tensor 39 TFLOP/s from the NVIDIA A100 Tensor Core GPU Architecture "
       "whitepaper"},
      {"H100 SXM", 80, 3350, 900, 63, 989.4, 1978.9, 494.7, 67, 34, 133.8, 133.8, kH100Sources},
      {"H100 PCIe", 80, 2000, 600, 63, 756, 1513, 378, 51, 26, 0, 0,
       "NVIDIA H100 Tensor Core GPU data sheet (PCIe column: 2 TB/s, BF16 756, FP8 1,513, TF32 "
       "378 TFLOP/s dense, FP32 51, FP64 26 TFLOP/s, NVLink bridge 600 GB/s, PCIe Gen5)"},
      {"H200 SXM", 141, 4800, 900, 63, 989, 1979, 495, 67, 34, 133.8, 133.8,
       "NVIDIA H200 Tensor Core GPU data sheet (SXM column: 141 GB HBM3e, 4.8 TB/s, BF16 989, FP8 "
       "1,979, TF32 495 TFLOP/s dense, FP32 67, FP64 34 TFLOP/s, NVLink 900 GB/s, PCIe Gen5); FP16 "
       "and BF16 non-tensor as the H100 SXM5 (same GH100 die and clocks; H100 architecture "
       "whitepaper)"},
      {"B200", 180, 8000, 1800, 126, 2250, 4500, 1100, 75, 37, 0, 0,
       "NVIDIA HGX B200 data sheet, per GPU (about 180 GB HBM3e, 8 TB/s, BF16 2.25, FP8 4.5, TF32 "
       "1.1 PFLOP/s dense, FP32 75, FP64 37 TFLOP/s, NVLink 1.8 TB/s, PCIe Gen6)"},
  };
  return table;
}

const DatasheetEntry* find_datasheet(std::string_view device_name) {
  const std::string name = upper(device_name);
  auto entry = [](std::string_view part) -> const DatasheetEntry* {
    for (const auto& e : datasheet_table()) {
      if (e.part == part)
        return &e;
    }
    return nullptr;
  };
  // NVL boards run at other clocks and power than the SXM parts: not the same peaks.
  if (has(name, "NVL"))
    return nullptr;
  if (has(name, "B200"))
    return entry("B200");
  if (has(name, "H200"))
    return entry("H200 SXM");
  if (has(name, "H100")) {
    if (has(name, "PCIE"))
      return entry("H100 PCIe");
    // The SXM board reports itself as "NVIDIA H100 80GB HBM3"; some drivers say "H100 SXM5".
    if (has(name, "HBM3") || has(name, "SXM"))
      return entry("H100 SXM");
    return nullptr;
  }
  if (has(name, "A100") && has(name, "SXM") && has(name, "80GB"))
    return entry("A100 SXM 80GB");
  return nullptr;
}

double datasheet_figure(const DatasheetEntry& e, std::string_view figure) {
  if (figure == "memory_gbps")
    return e.memory_gbps;
  if (figure == "nvlink_gbps")
    return e.nvlink_gbps;
  if (figure == "pcie_gbps")
    return e.pcie_gbps;
  if (figure == "gemm_bf16_tflops" || figure == "gemm_fp16_tflops")
    return e.gemm_bf16_tflops;
  if (figure == "gemm_fp8_tflops")
    return e.gemm_fp8_tflops;
  if (figure == "gemm_tf32_tflops")
    return e.gemm_tf32_tflops;
  if (figure == "fma_float_tflops")
    return e.fma_fp32_tflops;
  if (figure == "fma_double_tflops")
    return e.fma_fp64_tflops;
  if (figure == "fma_fp16_tflops")
    return e.fma_fp16_tflops;
  if (figure == "fma_bf16_tflops")
    return e.fma_bf16_tflops;
  return 0;
}

} // namespace cb::cuda
