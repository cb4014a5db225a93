#pragma once
// Data-sheet peaks of the GPUs this project qualifies, each entry with its sources, so that every
// measured figure can also be given as a fraction of what the vendor promises. Host code, no CUDA.
// Dense figures: NVIDIA's headline tensor numbers with 2:4 sparsity are twice these.
#include <string>
#include <string_view>
#include <vector>

namespace cb::cuda {

struct DatasheetEntry {
  std::string_view part;       // "H200 SXM"
  double memory_gb = 0;        // 1e9 bytes
  double memory_gbps = 0;      // HBM bandwidth, GB/s
  double nvlink_gbps = 0;      // NVLink, bidirectional, GB/s
  double pcie_gbps = 0;        // PCIe per direction, GB/s (theoretical)
  double gemm_bf16_tflops = 0; // tensor cores, dense; fp16 is the same on these parts
  double gemm_fp8_tflops = 0;  // 0: no fp8 tensor cores
  double gemm_tf32_tflops = 0;
  double fma_fp32_tflops = 0; // CUDA cores (non-tensor)
  double fma_fp64_tflops = 0; // CUDA cores (non-tensor)
  double fma_fp16_tflops = 0; // CUDA cores, half2 (non-tensor); 0 when not published
  double fma_bf16_tflops = 0; // CUDA cores, bfloat162 (non-tensor): half of fp16 on A100
  std::string_view sources;
};

// The entry for a device name as the driver reports it ("NVIDIA H200", "NVIDIA H100 80GB HBM3",
// "NVIDIA A100-SXM4-80GB", "NVIDIA B200"), or nullptr for parts not in the table (including
// variants whose peaks differ, e.g. PCIe or NVL boards of a part listed as SXM).
const DatasheetEntry* find_datasheet(std::string_view device_name);

// A figure by name, 0 when the entry does not have it: memory_gbps, nvlink_gbps, pcie_gbps,
// gemm_{bf16,fp16,fp8,tf32}_tflops, fma_{float,double,fp16,bf16}_tflops.
double datasheet_figure(const DatasheetEntry& entry, std::string_view figure);

// Every entry, for listings and tests.
const std::vector<DatasheetEntry>& datasheet_table();

} // namespace cb::cuda
