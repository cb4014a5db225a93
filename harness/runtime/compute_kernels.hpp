#pragma once
// Compute kernels a backend may offer to the compute family: STREAM-style array kernels, an FMA
// peak kernel and GEMM, each prepared once (buffers allocated, first touch done) and then timed in
// batches by the engine. The compute cases are written once against this; a backend that returns
// nullptr from Backend::compute() leaves the cases to their own (host) kernels.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/dtype.hpp"

namespace cb {

// copy c=a (2 x bytes moved), scale b=s*c (2x), add c=a+b (3x), triad a=b+s*c (3x), read sum(a)
// (1x): STREAM's definitions and byte counts.
enum class StreamKind { copy, scale, add, triad, read };

inline std::string_view stream_kind_name(StreamKind kind) {
  switch (kind) {
  case StreamKind::copy:
    return "copy";
  case StreamKind::scale:
    return "scale";
  case StreamKind::add:
    return "add";
  case StreamKind::triad:
    return "triad";
  case StreamKind::read:
    return "read";
  }
  return "?";
}

// How many array-sized transfers one pass of the kernel makes (2 for copy, 3 for triad, ...).
inline int stream_arrays_moved(StreamKind kind) {
  switch (kind) {
  case StreamKind::copy:
  case StreamKind::scale:
    return 2;
  case StreamKind::add:
  case StreamKind::triad:
    return 3;
  case StreamKind::read:
    return 1;
  }
  return 0;
}

// A prepared kernel. The object owns its buffers; run() may be called any number of times.
class TimedKernel {
public:
  virtual ~TimedKernel() = default;
  // Seconds for k operations on this rank, to completion (GPU: events around the batch).
  virtual double run(int k) = 0;
  // Work of one operation: bytes moved for stream kernels, floating-point operations for FMA peak
  // and GEMM (2 per FMA, 2mnk).
  virtual double work_per_op() const = 0;
  // Checks the results after timing, outside the timed region: empty when right, else what is
  // wrong (e.g. "37 of 1048576 elements differ from 3.5").
  virtual std::string verify() = 0;
};

class ComputeKernels {
public:
  virtual ~ComputeKernels() = default;
  // Empty when the kernel can run here, else the reason to record when skipping it.
  virtual std::string why_unsupported_stream(StreamKind kind, DType t) const = 0;
  virtual std::string why_unsupported_fma(DType t) const = 0;
  // precision: bf16, fp16, tf32, fp8 (e4m3), float, double; the shape too (fp8 needs dimensions
  // that keep every matrix 16-byte aligned).
  virtual std::string why_unsupported_gemm(const std::string& precision, int m, int n,
                                           int k) const = 0;
  // Arrays of array_bytes each (rounded down to whole elements).
  virtual std::unique_ptr<TimedKernel> stream(StreamKind kind, DType t,
                                              std::size_t array_bytes) = 0;
  virtual std::unique_ptr<TimedKernel> fma_peak(DType t) = 0;
  // C (m x n) = A (m x k) * B (k x n).
  virtual std::unique_ptr<TimedKernel> gemm(const std::string& precision, int m, int n, int k) = 0;
  // The array size the stream kernels should use by default (a multiple of the last-level cache).
  virtual std::size_t default_array_bytes() const = 0;
  // The device's data-sheet peak for a figure, 0 when unknown: "memory_gbps", "fma_fp32_tflops",
  // "gemm_bf16_tflops", ... so that a case can add "fraction_of_peak" to its metrics.
  virtual double peak(const std::string& figure) const = 0;
};

} // namespace cb
