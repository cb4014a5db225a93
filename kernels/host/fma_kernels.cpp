#include "host/fma_kernels.hpp"

#include <cmath>

namespace cb {
namespace {

constexpr double kMul = 0.99, kAdd = 0.01;
constexpr int kAcc = kFmaAccumulators;

// The chains in GCC vector types of `Bytes` bytes. Always inlined into the per-ISA functions
// below, so the vector type is lowered for that ISA; this file is compiled with
// -ffp-contract=fast, so `x * m + d` becomes one FMA instruction where the ISA has it. Bytes
// matches the register width so the 12 accumulators stay in registers.
template <typename T, int Bytes>
struct VectorOf; // GCC ignores vector_size on a dependent type, so each one is spelt out
template <> struct VectorOf<double, 64> { typedef double type __attribute__((vector_size(64))); };
template <> struct VectorOf<double, 32> { typedef double type __attribute__((vector_size(32))); };
template <> struct VectorOf<double, 16> { typedef double type __attribute__((vector_size(16))); };
template <> struct VectorOf<float, 64> { typedef float type __attribute__((vector_size(64))); };
template <> struct VectorOf<float, 32> { typedef float type __attribute__((vector_size(32))); };
template <> struct VectorOf<float, 16> { typedef float type __attribute__((vector_size(16))); };

template <int Bytes, typename T>
[[gnu::always_inline]] inline std::vector<T> run_chains(long iterations) {
  using V = typename VectorOf<T, Bytes>::type;
  constexpr int lanes = Bytes / static_cast<int>(sizeof(T));
  std::vector<T> out(static_cast<std::size_t>(kAcc * lanes));
  V acc[kAcc];
  for (int j = 0; j < kAcc; ++j) {
    for (int l = 0; l < lanes; ++l) {
      acc[j][l] = static_cast<T>(fma_start_value(static_cast<std::size_t>(j * lanes + l)));
    }
  }
  const V m = V{} + static_cast<T>(kMul);
  const V d = V{} + static_cast<T>(kAdd);
  for (long it = 0; it < iterations; ++it) {
#pragma GCC unroll 12
    for (int j = 0; j < kAcc; ++j)
      acc[j] = acc[j] * m + d;
  }
  for (int j = 0; j < kAcc; ++j) {
    for (int l = 0; l < lanes; ++l)
      out[static_cast<std::size_t>(j * lanes + l)] = acc[j][l];
  }
  return out;
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) std::vector<double> chains_f64_avx512(long iterations) {
  return run_chains<64, double>(iterations);
}
__attribute__((target("avx512f"))) std::vector<float> chains_f32_avx512(long iterations) {
  return run_chains<64, float>(iterations);
}
__attribute__((target("avx2,fma"))) std::vector<double> chains_f64_avx2(long iterations) {
  return run_chains<32, double>(iterations);
}
__attribute__((target("avx2,fma"))) std::vector<float> chains_f32_avx2(long iterations) {
  return run_chains<32, float>(iterations);
}
#endif
// SSE2 (or the architecture's base vectors) without FMA: a multiply then an add, the same two
// flops per lane.
std::vector<double> chains_f64_baseline(long iterations) {
  return run_chains<16, double>(iterations);
}
std::vector<float> chains_f32_baseline(long iterations) {
  return run_chains<16, float>(iterations);
}

template <typename T> T reference(T start, long iterations) {
  T x = start;
  for (long it = 0; it < iterations; ++it)
    x = std::fma(x, static_cast<T>(kMul), static_cast<T>(kAdd));
  return x;
}

template <typename T>
std::size_t count_errors(const std::vector<T>& got, long iterations, double tolerance) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double want = reference(static_cast<T>(fma_start_value(i)), iterations);
    const double v = got[i];
    if (!std::isfinite(v) || std::fabs(v - want) > tolerance * std::fabs(want))
      ++wrong;
  }
  return wrong;
}

} // namespace

FmaIsa best_fma_isa() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return FmaIsa::avx512f;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return FmaIsa::avx2_fma;
#endif
  return FmaIsa::baseline;
}

std::string_view fma_isa_name(FmaIsa isa) {
  switch (isa) {
  case FmaIsa::avx512f:
    return "avx512f";
  case FmaIsa::avx2_fma:
    return "avx2+fma";
  case FmaIsa::baseline:
    break;
  }
#if defined(__x86_64__)
  return "sse2 (multiply + add)";
#else
  return "128-bit base vectors";
#endif
}

int fma_lanes(FmaIsa isa, bool is_double) {
  const int bits = isa == FmaIsa::avx512f ? 512 : isa == FmaIsa::avx2_fma ? 256 : 128;
  return bits / (is_double ? 64 : 32);
}

double fma_flops(long iterations, int accumulators, int lanes) {
  return 2.0 * static_cast<double>(iterations) * accumulators * lanes;
}

double fma_start_value(std::size_t lane_index) {
  return 1.0 + static_cast<double>(lane_index % 64) / 64.0;
}

std::vector<double> fma_chains_f64(FmaIsa isa, long iterations) {
#if defined(__x86_64__)
  if (isa == FmaIsa::avx512f)
    return chains_f64_avx512(iterations);
  if (isa == FmaIsa::avx2_fma)
    return chains_f64_avx2(iterations);
#endif
  (void)isa;
  return chains_f64_baseline(iterations);
}

std::vector<float> fma_chains_f32(FmaIsa isa, long iterations) {
#if defined(__x86_64__)
  if (isa == FmaIsa::avx512f)
    return chains_f32_avx512(iterations);
  if (isa == FmaIsa::avx2_fma)
    return chains_f32_avx2(iterations);
#endif
  (void)isa;
  return chains_f32_baseline(iterations);
}

double fma_reference_f64(double start, long iterations) {
  return reference(start, iterations);
}
float fma_reference_f32(float start, long iterations) {
  return reference(start, iterations);
}

std::size_t count_fma_errors(const std::vector<double>& got, long iterations) {
  return count_errors(got, iterations, 1e-12);
}
std::size_t count_fma_errors(const std::vector<float>& got, long iterations) {
  return count_errors(got, iterations, 1e-4);
}

} // namespace cb
