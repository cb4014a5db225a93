#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "host/fma_kernels.hpp"

namespace cb {
namespace {

TEST(FmaAccounting, TwoFlopsPerFmaPerLane) {
  EXPECT_EQ(fma_flops(1000, 12, 8), 2.0 * 1000 * 12 * 8);
  EXPECT_EQ(fma_flops(1L << 17, kFmaAccumulators, 16), 2.0 * (1L << 17) * 12 * 16);
}

TEST(FmaAccounting, LanesFollowVectorWidth) {
  EXPECT_EQ(fma_lanes(FmaIsa::avx512f, true), 8);
  EXPECT_EQ(fma_lanes(FmaIsa::avx512f, false), 16);
  EXPECT_EQ(fma_lanes(FmaIsa::avx2_fma, true), 4);
  EXPECT_EQ(fma_lanes(FmaIsa::avx2_fma, false), 8);
  EXPECT_EQ(fma_lanes(FmaIsa::baseline, true), 2);
  EXPECT_EQ(fma_lanes(FmaIsa::baseline, false), 4);
}

TEST(FmaAccounting, EnoughChainsToHideLatency) {
  // 4-5 cycles of latency on 2 ports needs at least 10 independent vectors in flight.
  EXPECT_GE(kFmaAccumulators, 10);
}

TEST(FmaKernels, ChainsMatchTheScalarRecurrenceOnEveryIsaThisCpuRuns) {
  const FmaIsa best = best_fma_isa();
  std::vector<FmaIsa> isas{FmaIsa::baseline};
  if (best == FmaIsa::avx2_fma || best == FmaIsa::avx512f)
    isas.push_back(FmaIsa::avx2_fma);
  if (best == FmaIsa::avx512f)
    isas.push_back(FmaIsa::avx512f);
  for (FmaIsa isa : isas) {
    for (long iterations : {0L, 1L, 7L, 1000L}) {
      const auto d = fma_chains_f64(isa, iterations);
      const auto f = fma_chains_f32(isa, iterations);
      ASSERT_EQ(d.size(), static_cast<std::size_t>(kFmaAccumulators * fma_lanes(isa, true)));
      ASSERT_EQ(f.size(), static_cast<std::size_t>(kFmaAccumulators * fma_lanes(isa, false)));
      EXPECT_EQ(count_fma_errors(d, iterations), 0u) << fma_isa_name(isa) << " " << iterations;
      EXPECT_EQ(count_fma_errors(f, iterations), 0u) << fma_isa_name(isa) << " " << iterations;
    }
  }
}

TEST(FmaKernels, ReferenceConvergesToOne) {
  EXPECT_NEAR(fma_reference_f64(1.5, 5000), 1.0, 1e-12);
  EXPECT_NEAR(fma_reference_f32(1.5f, 5000), 1.0f, 1e-5f);
  EXPECT_DOUBLE_EQ(fma_reference_f64(1.5, 1), 1.5 * 0.99 + 0.01);
}

TEST(FmaKernels, WrongOrNonFiniteLanesAreCounted) {
  auto d = fma_chains_f64(FmaIsa::baseline, 100);
  d[0] = std::numeric_limits<double>::quiet_NaN();
  d[3] *= 1.001;
  EXPECT_EQ(count_fma_errors(d, 100), 2u);
  auto f = fma_chains_f32(FmaIsa::baseline, 100);
  f[1] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(count_fma_errors(f, 100), 1u);
}

} // namespace
} // namespace cb
