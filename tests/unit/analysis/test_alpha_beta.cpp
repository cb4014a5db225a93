#include <gtest/gtest.h>

#include "analysis/alpha_beta.hpp"
#include "analysis_test_data.hpp"

using namespace cb;
using test::all_reduce_record;
using test::ring_time;

namespace {

constexpr double kAlpha = 5e-6;      // 5 us per message
constexpr double kBeta = 1.0 / 10e9; // 10 GB/s

ResultsFile ring_results(const std::vector<int>& gpus, double alpha, double beta,
                         int gpus_per_node = 8) {
  ResultsFile f;
  for (int p : gpus) {
    for (double bytes = 1024; bytes <= 64.0 * 1024 * 1024; bytes *= 4) {
      f.records.push_back(
          all_reduce_record(bytes, p, ring_time(alpha, beta, bytes, p), false, gpus_per_node));
    }
  }
  return f;
}

bool has_warning(const std::vector<std::string>& warnings, const std::string& text) {
  for (const auto& w : warnings) {
    if (w.find(text) != std::string::npos)
      return true;
  }
  return false;
}

} // namespace

TEST(RingAllReduce, ModelFormula) {
  RingAllReduceFit fit;
  fit.alpha_s = 1e-5;
  fit.beta_s_per_byte = 1e-9;
  EXPECT_DOUBLE_EQ(fit.time(1e6, 1), 0);
  // 2(4-1) 1e-5 + 2(3)/4 1e6 1e-9
  EXPECT_DOUBLE_EQ(fit.time(1e6, 4), 6e-5 + 1.5e-3);
  EXPECT_DOUBLE_EQ(fit.bandwidth_gbps(), 1.0);
}

TEST(RingAllReduce, RecoversAlphaAndBetaAcrossGpuCounts) {
  const auto fits = fit_ring_all_reduce(ring_results({2, 4, 8}, kAlpha, kBeta));
  ASSERT_EQ(fits.size(), 1u);
  const auto& fit = fits[0];
  ASSERT_TRUE(fit.ok);
  EXPECT_EQ(fit.tier, "intra");
  EXPECT_NEAR(fit.alpha_s, kAlpha, kAlpha * 1e-6);
  EXPECT_NEAR(fit.beta_s_per_byte, kBeta, kBeta * 1e-6);
  EXPECT_NEAR(fit.bandwidth_gbps(), 10, 1e-5);
  EXPECT_NEAR(fit.r2, 1, 1e-12);
  EXPECT_EQ(fit.gpus, (std::vector<int>{2, 4, 8}));
  EXPECT_EQ(fit.points, 3 * 9);
}

TEST(RingAllReduce, SeparateFitsPerTier) {
  ResultsFile f = ring_results({2, 4, 8}, kAlpha, kBeta);
  const ResultsFile inter = ring_results({16, 32}, 20e-6, 1.0 / 1e9);
  f.records.insert(f.records.end(), inter.records.begin(), inter.records.end());
  const auto fits = fit_ring_all_reduce(f);
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[0].tier, "intra");
  EXPECT_EQ(fits[1].tier, "inter");
  EXPECT_NEAR(fits[0].alpha_s, kAlpha, kAlpha * 1e-6);
  EXPECT_NEAR(fits[1].alpha_s, 20e-6, 20e-6 * 1e-6);
  EXPECT_NEAR(fits[1].bandwidth_gbps(), 1, 1e-6);
  EXPECT_EQ(fits[1].gpus, (std::vector<int>{16, 32}));
}

TEST(RingAllReduce, InPlaceRecordsAreLeftOutWhenOutOfPlaceOnesExist) {
  ResultsFile f = ring_results({2, 4}, kAlpha, kBeta);
  for (double bytes : {1e3, 1e6}) {
    f.records.push_back(all_reduce_record(bytes, 4, 1.0, /*in_place=*/true)); // absurdly slow
  }
  const auto fits = fit_ring_all_reduce(f);
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_NEAR(fits[0].alpha_s, kAlpha, kAlpha * 1e-6);
}

TEST(RingAllReduce, OneGpuAndUnusableRecordsAreIgnored) {
  ResultsFile f = ring_results({2, 4}, kAlpha, kBeta);
  f.records.push_back(all_reduce_record(1e6, 1, 1e-9));
  Record failed = all_reduce_record(1e6, 4, 5.0);
  failed.status = RecordStatus::failed;
  f.records.push_back(failed);
  const auto fits = fit_ring_all_reduce(f);
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_EQ(fits[0].gpus, (std::vector<int>{2, 4}));
  EXPECT_NEAR(fits[0].alpha_s, kAlpha, kAlpha * 1e-6);
}

TEST(RingAllReduce, FitsInRelativeTermsSoSmallMessagesDecideTheLatency) {
  // 3 % noise on every time: the latency still comes out near 5 us although large messages take
  // milliseconds.
  ResultsFile f = ring_results({2, 4, 8}, kAlpha, kBeta);
  int i = 0;
  for (auto& r : f.records) {
    const double factor = 1 + 0.03 * ((i++ % 3) - 1);
    r.stats.median *= factor;
  }
  const auto fits = fit_ring_all_reduce(f);
  ASSERT_TRUE(fits[0].ok);
  EXPECT_NEAR(fits[0].alpha_s, kAlpha, kAlpha * 0.1);
  EXPECT_NEAR(fits[0].beta_s_per_byte, kBeta, kBeta * 0.05);
}

TEST(RingAllReduce, NothingToFit) {
  EXPECT_TRUE(fit_ring_all_reduce(ResultsFile{}).empty());
  ResultsFile f;
  f.records.push_back(all_reduce_record(1e6, 2, 1e-3));
  const auto fits = fit_ring_all_reduce(f);
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_FALSE(fits[0].ok);
  EXPECT_TRUE(has_warning(fits[0].warnings, "at least 2"));
}

TEST(Hockney, PerGpuCountLatencyAndBandwidth) {
  const auto fits = fit_hockney(ring_results({2, 8}, kAlpha, kBeta));
  ASSERT_EQ(fits.size(), 2u);
  for (const auto& fit : fits) {
    ASSERT_TRUE(fit.ok);
    const double p = fit.gpus;
    // T = 2(p-1) alpha + 2(p-1)/p beta n: a line in n.
    EXPECT_NEAR(fit.latency_s, 2 * (p - 1) * kAlpha, 1e-12);
    EXPECT_NEAR(fit.seconds_per_byte, 2 * (p - 1) / p * kBeta, 1e-18);
    EXPECT_EQ(fit.case_name, "all_reduce");
    EXPECT_FALSE(fit.params.contains("bytes"));
    EXPECT_EQ(fit.params["dtype"], "float");
    EXPECT_EQ(fit.min_bytes, 1024);
    EXPECT_EQ(fit.max_bytes, 64.0 * 1024 * 1024);
    EXPECT_NEAR(fit.time(1e6), 2 * (p - 1) * kAlpha + 2 * (p - 1) / p * kBeta * 1e6, 1e-12);
  }
  EXPECT_NEAR(fits[0].bandwidth_gbps(), 10, 1e-6); // p = 2: factor 1
}

TEST(Hockney, OneGpuHasNoMessageToModel) {
  ResultsFile f;
  for (double bytes : {1e3, 1e6})
    f.records.push_back(all_reduce_record(bytes, 1, 1e-7 + bytes * 1e-12));
  EXPECT_TRUE(fit_hockney(f).empty());
}

TEST(Hockney, CountDoesNotSplitALine) {
  ResultsFile f;
  for (double bytes : {1e3, 1e6, 1e7}) {
    Record r = all_reduce_record(bytes, 2, kAlpha + bytes * kBeta);
    r.params["count"] = bytes / 4;
    f.records.push_back(r);
  }
  const auto fits = fit_hockney(f);
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_EQ(fits[0].points, 3);
  EXPECT_FALSE(fits[0].params.contains("count"));
}

TEST(Hockney, NeedsTwoMessageSizes) {
  ResultsFile f;
  f.records.push_back(all_reduce_record(1e6, 2, 1e-3));
  f.records.push_back(all_reduce_record(1e6, 2, 1.1e-3));
  EXPECT_TRUE(fit_hockney(f).empty());
}

TEST(Hockney, NegativeLatencyIsHeldAtZero) {
  ResultsFile f;
  // T = -1 us + n / 1 GB/s is not physical; the fit keeps a >= 0 and says so.
  for (double bytes : {1e6, 2e6, 4e6})
    f.records.push_back(all_reduce_record(bytes, 2, bytes * 1e-9 - 1e-6));
  const auto fits = fit_hockney(f);
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_TRUE(fits[0].ok);
  EXPECT_EQ(fits[0].latency_s, 0);
  EXPECT_TRUE(has_warning(fits[0].warnings, "latency below 0"));
}

TEST(Hockney, UsesTimeUsWhenThereAreNoSamples) {
  ResultsFile f;
  for (double bytes : {1e3, 1e6}) {
    Record r = all_reduce_record(bytes, 2, kAlpha * 2 + bytes * kBeta);
    r.samples_s.clear();
    r.stats = Stats{};
    f.records.push_back(r);
  }
  const auto fits = fit_hockney(f);
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_NEAR(fits[0].latency_s, 2 * kAlpha, 1e-12);
}
