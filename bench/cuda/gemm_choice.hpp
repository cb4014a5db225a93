#pragma once
// The choice of a cuBLASLt algorithm per GEMM problem, for a sequence of GEMMs that repeats (the
// training step's): each distinct problem's candidates are timed once, on buffers of the caller's,
// and every GEMM of that problem takes the fastest.
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda/lt_matmul.hpp"

namespace cb {

// "TN 8192x8192x8192": how compute/gemm names the same problem (op, m, n, k).
std::string shape_key(const cuda::MatmulShape& s);

// One GEMM to choose for and the buffers a trial may use: the trials write `c`, so it must be an
// output the sequence writes again before reading it.
struct GemmTrial {
  cuda::LtMatmul* matmul = nullptr;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
};

// The fastest candidate of each trial's GEMM (an index for LtMatmul::use), timed on `stream` once
// per distinct problem (the same op, sizes, leading dimensions and output type).
std::vector<int> fastest_candidates(const std::vector<GemmTrial>& trials, void* workspace,
                                    cudaStream_t stream);

} // namespace cb
