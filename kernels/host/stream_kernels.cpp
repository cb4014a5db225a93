#include "host/stream_kernels.hpp"

#include <cstdint>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace cb {

std::string_view stream_kernel_name(StreamKernel k) {
  switch (k) {
  case StreamKernel::copy:
    return "copy";
  case StreamKernel::scale:
    return "scale";
  case StreamKernel::add:
    return "add";
  case StreamKernel::triad:
    return "triad";
  }
  return "?";
}

int stream_arrays_touched(StreamKernel k) {
  return k == StreamKernel::copy || k == StreamKernel::scale ? 2 : 3;
}

double stream_bytes_per_call(StreamKernel k, std::size_t array_bytes) {
  return static_cast<double>(stream_arrays_touched(k)) * static_cast<double>(array_bytes);
}

namespace {

constexpr double kInitA = 1.0, kInitB = 2.0, kInitC = 0.5;

// Cached stores: plain loops the compiler vectorises for each ISA of the clone list (picked at load
// time by the CPU, so the binary runs on any x86-64 machine).
#if defined(__x86_64__)
#define CB_STREAM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CB_STREAM_CLONES
#endif

CB_STREAM_CLONES void copy_cached(double* __restrict c, const double* __restrict a, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    c[i] = a[i];
}
CB_STREAM_CLONES void scale_cached(double* __restrict b, const double* __restrict c, double q,
                                   std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    b[i] = q * c[i];
}
CB_STREAM_CLONES void add_cached(double* __restrict c, const double* __restrict a,
                                 const double* __restrict b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}
CB_STREAM_CLONES void triad_cached(double* __restrict a, const double* __restrict b,
                                   const double* __restrict c, double q, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    a[i] = b[i] + q * c[i];
}

#if defined(__x86_64__)
// Non-temporal stores with SSE2 (every x86-64 CPU): 16-byte stores fill write-combining buffers
// just as wider ones do, and a memory-bound loop is not limited by the vector width. Loops start
// element-wise until the destination is 16-byte aligned.
template <typename Op> void stream_nt(double* __restrict dst, std::size_t n, Op op) {
  std::size_t i = 0;
  for (; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) & 15) != 0; ++i)
    dst[i] = op.scalar(i);
  for (; i + 8 <= n; i += 8) {
    _mm_stream_pd(dst + i, op.vector(i));
    _mm_stream_pd(dst + i + 2, op.vector(i + 2));
    _mm_stream_pd(dst + i + 4, op.vector(i + 4));
    _mm_stream_pd(dst + i + 6, op.vector(i + 6));
  }
  for (; i < n; ++i)
    dst[i] = op.scalar(i);
  _mm_sfence(); // the streamed data is visible before anyone reads it
}

struct CopyOp {
  const double* a;
  double scalar(std::size_t i) const { return a[i]; }
  __m128d vector(std::size_t i) const { return _mm_loadu_pd(a + i); }
};
struct ScaleOp {
  const double* c;
  double q;
  double scalar(std::size_t i) const { return q * c[i]; }
  __m128d vector(std::size_t i) const { return _mm_mul_pd(_mm_set1_pd(q), _mm_loadu_pd(c + i)); }
};
struct AddOp {
  const double* a;
  const double* b;
  double scalar(std::size_t i) const { return a[i] + b[i]; }
  __m128d vector(std::size_t i) const {
    return _mm_add_pd(_mm_loadu_pd(a + i), _mm_loadu_pd(b + i));
  }
};
struct TriadOp {
  const double* b;
  const double* c;
  double q;
  double scalar(std::size_t i) const { return b[i] + q * c[i]; }
  __m128d vector(std::size_t i) const {
    return _mm_add_pd(_mm_loadu_pd(b + i), _mm_mul_pd(_mm_set1_pd(q), _mm_loadu_pd(c + i)));
  }
};
#endif

} // namespace

void init_stream_arrays(const StreamArrays& arrays) {
  for (std::size_t i = 0; i < arrays.n; ++i) {
    arrays.a[i] = kInitA;
    arrays.b[i] = kInitB;
    arrays.c[i] = kInitC;
  }
}

void run_stream_kernel(StreamKernel k, const StreamArrays& s, bool streaming_stores) {
  const double q = kStreamScalar;
#if defined(__x86_64__)
  if (streaming_stores) {
    switch (k) {
    case StreamKernel::copy:
      return stream_nt(s.c, s.n, CopyOp{s.a});
    case StreamKernel::scale:
      return stream_nt(s.b, s.n, ScaleOp{s.c, q});
    case StreamKernel::add:
      return stream_nt(s.c, s.n, AddOp{s.a, s.b});
    case StreamKernel::triad:
      return stream_nt(s.a, s.n, TriadOp{s.b, s.c, q});
    }
  }
#else
  (void)streaming_stores;
#endif
  switch (k) {
  case StreamKernel::copy:
    return copy_cached(s.c, s.a, s.n);
  case StreamKernel::scale:
    return scale_cached(s.b, s.c, q, s.n);
  case StreamKernel::add:
    return add_cached(s.c, s.a, s.b, s.n);
  case StreamKernel::triad:
    return triad_cached(s.a, s.b, s.c, q, s.n);
  }
}

std::size_t count_stream_errors(StreamKernel k, const StreamArrays& s) {
  // The written array's value after the kernel; the inputs keep their initial values.
  const double q = kStreamScalar;
  const double* written = nullptr;
  double want = 0;
  switch (k) {
  case StreamKernel::copy:
    written = s.c, want = kInitA;
    break;
  case StreamKernel::scale:
    written = s.b, want = q * kInitC;
    break;
  case StreamKernel::add:
    written = s.c, want = kInitA + kInitB;
    break;
  case StreamKernel::triad:
    written = s.a, want = kInitB + q * kInitC;
    break;
  }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < s.n; ++i)
    wrong += written[i] != want ? 1 : 0;
  return wrong;
}

} // namespace cb
