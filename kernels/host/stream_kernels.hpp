#pragma once
// STREAM's four kernels (McCalpin) on double arrays, with its byte accounting:
//   copy  c = a          2 arrays touched
//   scale b = q * c      2
//   add   c = a + b      3
//   triad a = b + q * c  3
// Each kernel on its own is idempotent, so after any number of timed calls the arrays hold known
// values and every element can be checked.
#include <cstddef>
#include <string_view>

namespace cb {

enum class StreamKernel { copy, scale, add, triad };

std::string_view stream_kernel_name(StreamKernel k);
// Arrays read or written by one call: 2 for copy and scale, 3 for add and triad.
int stream_arrays_touched(StreamKernel k);
// Bytes STREAM counts for one call over arrays of `array_bytes` each.
double stream_bytes_per_call(StreamKernel k, std::size_t array_bytes);

struct StreamArrays {
  double* a = nullptr;
  double* b = nullptr;
  double* c = nullptr;
  std::size_t n = 0; // elements per array
};

// STREAM's scalar q.
inline constexpr double kStreamScalar = 3.0;

// Fills a = 1, b = 2, c = 0.5: every kernel changes the array it writes, so a kernel that does
// not run (or runs on part of the array) is caught.
void init_stream_arrays(const StreamArrays& arrays);

// One call of kernel k. `streaming_stores`: write with non-temporal stores (arrays far larger than
// the caches: no read-for-ownership of the destination, as glibc's memcpy does for large copies).
void run_stream_kernel(StreamKernel k, const StreamArrays& arrays, bool streaming_stores);

// Elements of the written array that differ from the value kernel k must leave after any number of
// calls on arrays set by init_stream_arrays.
std::size_t count_stream_errors(StreamKernel k, const StreamArrays& arrays);

} // namespace cb
