#pragma once
// Peak floating-point throughput of one core: independent chains of fused multiply-adds, enough of
// them to cover the FMA latency times the FMA ports of any current x86 core (4-5 cycles x 2
// ports = 8-10 vectors in flight; we keep 12). The instruction set is chosen at run time from what
// the CPU supports, so one binary is right on every x86-64 machine of a fleet.
//
// Each chain runs x <- x * m + d with m = 0.99, d = 0.01: a contraction towards 1 whose values stay
// normal (no denormal slow paths) and can be checked against the same recurrence done in scalar.
#include <cstddef>
#include <string_view>
#include <vector>

namespace cb {

enum class FmaIsa { avx512f, avx2_fma, baseline };

inline constexpr int kFmaAccumulators = 12;

// The widest FMA instruction set this CPU runs.
FmaIsa best_fma_isa();
std::string_view fma_isa_name(FmaIsa isa);
// Lanes per vector: 512, 256 or 128 bits of float or double.
int fma_lanes(FmaIsa isa, bool is_double);
// Floating-point operations of one run: 2 per FMA per lane (baseline: a multiply and an add).
double fma_flops(long iterations, int accumulators, int lanes);

// Runs `iterations` steps on kFmaAccumulators vectors and returns every lane of every chain
// (kFmaAccumulators * lanes values). Chain value i starts at fma_start_value(i).
std::vector<double> fma_chains_f64(FmaIsa isa, long iterations);
std::vector<float> fma_chains_f32(FmaIsa isa, long iterations);

double fma_start_value(std::size_t lane_index);
// The same recurrence in scalar, in the same type, for verification.
double fma_reference_f64(double start, long iterations);
float fma_reference_f32(float start, long iterations);

// Lanes whose value is not finite or differs from the scalar reference by more than the rounding
// of the type allows (rounding errors are damped by the contraction, bounded by ~100 eps).
std::size_t count_fma_errors(const std::vector<double>& got, long iterations);
std::size_t count_fma_errors(const std::vector<float>& got, long iterations);

} // namespace cb
