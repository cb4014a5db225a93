// The fits section is used where it still describes the records, and never when stale.
#include "report/stored_fits.hpp"

#include <gtest/gtest.h>

#include "analysis/fits_json.hpp"
#include "report_test_data.hpp"

namespace cb::report {
namespace {

using test::add_usl_curve;
using test::all_reduce_record;

ResultsFile scaling_results() {
  ResultsFile results;
  add_usl_curve(results, "compute", "triad", {{"bytes", 1u << 26}}, {1, 2, 4, 8, 16}, 0.05, 0.002);
  for (int p : {2, 4, 8}) {
    for (double bytes : {1e6, 1e7, 1e8}) {
      results.records.push_back(all_reduce_record(bytes, p, 5e-6, 1 / 100e9));
    }
  }
  return results;
}

TEST(StoredFits, ReadsBackWhatFitWrites) {
  const ResultsFile results = scaling_results();
  const ScalingAnalysis analysis = analyse_scaling(results);
  const CurveFits& triad = analysis.curves.front();
  ASSERT_TRUE(triad.usl && triad.usl->ok);
  const auto usl = usl_from_json(usl_to_json(*triad.usl));
  ASSERT_TRUE(usl.has_value());
  EXPECT_TRUE(usl->ok);
  EXPECT_DOUBLE_EQ(usl->alpha, triad.usl->alpha);
  EXPECT_DOUBLE_EQ(usl->beta, triad.usl->beta);
  EXPECT_DOUBLE_EQ(usl->gamma, triad.usl->gamma);
  EXPECT_EQ(usl->n_peak.has_value(), triad.usl->n_peak.has_value());
  const auto amdahl = amdahl_from_json(amdahl_to_json(*triad.amdahl));
  ASSERT_TRUE(amdahl.has_value());
  EXPECT_DOUBLE_EQ(amdahl->serial_fraction, triad.amdahl->serial_fraction);
  ASSERT_FALSE(analysis.ring_all_reduce.empty());
  const auto ring = ring_all_reduce_from_json(ring_all_reduce_to_json(analysis.ring_all_reduce[0]));
  ASSERT_TRUE(ring.has_value());
  EXPECT_NEAR(ring->alpha_s, 5e-6, 1e-9);
  EXPECT_NEAR(ring->bandwidth_gbps(), 100, 1e-6);
  EXPECT_EQ(ring->gpus, analysis.ring_all_reduce[0].gpus);
  const auto hockney = hockney_from_json(hockney_to_json(analysis.hockney[0]));
  ASSERT_TRUE(hockney.has_value());
  EXPECT_EQ(hockney->case_name, "all_reduce");
  EXPECT_DOUBLE_EQ(hockney->seconds_per_byte, analysis.hockney[0].seconds_per_byte);
}

TEST(StoredFits, NullFiguresAreAFitThatDidNotWork) {
  const auto usl = usl_from_json({{"alpha", nullptr},
                                  {"beta", nullptr},
                                  {"gamma", nullptr},
                                  {"r2", nullptr},
                                  {"points", 2},
                                  {"warnings", {"needs 3 or more GPU counts"}}});
  ASSERT_TRUE(usl.has_value());
  EXPECT_FALSE(usl->ok);
  EXPECT_EQ(usl->warnings.size(), 1u);
}

TEST(StoredFits, OtherShapesAreIgnored) {
  EXPECT_FALSE(usl_from_json({{"alpha", "0.1"}}).has_value());
  EXPECT_FALSE(usl_from_json({{"method", "magic"}}).has_value());
  EXPECT_FALSE(usl_from_json({{"warnings", "one"}}).has_value());
  EXPECT_FALSE(usl_from_json(nlohmann::json::array()).has_value());
  EXPECT_FALSE(amdahl_from_json({{"serial_fraction", true}}).has_value());
  EXPECT_FALSE(ring_all_reduce_from_json({{"alpha_us", 1.0}}).has_value());
  EXPECT_FALSE(hockney_from_json({{"case", "all_reduce"}, {"tier", "intra"}}).has_value());
}

TEST(StoredFits, MatchesACurvePointForPoint) {
  ResultsFile results = scaling_results();
  const ScalingAnalysis analysis = analyse_scaling(results);
  store_fits(results, analysis);
  // Mark the stored triad fit so a match is visible.
  results.fits["curves"][0]["usl"]["alpha"] = 0.123;
  const StoredFits stored(results.fits);
  const Curve& triad = analysis.curves.front().curve;
  const auto models = stored.for_curve(triad);
  ASSERT_TRUE(models && models->usl);
  EXPECT_DOUBLE_EQ(models->usl->alpha, 0.123);
  ASSERT_TRUE(models->amdahl.has_value());

  Curve changed = triad;
  changed.value.back() *= 1.01; // a record measured again since the fit
  EXPECT_FALSE(stored.for_curve(changed).has_value());
  Curve longer = triad;
  longer.gpus.push_back(32);
  longer.value.push_back(1);
  EXPECT_FALSE(stored.for_curve(longer).has_value());
  Curve other = triad;
  other.key.params = {{"bytes", 1}};
  EXPECT_FALSE(stored.for_curve(other).has_value());
}

TEST(StoredFits, AlphaBetaOnlyWhileCurrentForTheCollectives) {
  ResultsFile results = scaling_results();
  store_fits(results, analyse_scaling(results));
  results.fits["alpha_beta"]["ring_all_reduce"][0]["alpha_us"] = 42.0;
  std::vector<CurveFits> curves = analyse_scaling(results).curves;
  {
    const StoredFits stored(results.fits);
    const auto ab = stored.alpha_beta(curves);
    ASSERT_TRUE(ab.has_value());
    ASSERT_EQ(ab->ring_all_reduce.size(), 1u);
    EXPECT_NEAR(ab->ring_all_reduce[0].alpha_s, 42e-6, 1e-12);
    EXPECT_FALSE(ab->per_gpu_count.empty());
  }
  // A new message size measured after the fit: its curve has no entry, the section is stale.
  results.records.push_back(all_reduce_record(1e9, 2, 5e-6, 1 / 100e9));
  curves = analyse_scaling(results).curves;
  const StoredFits stale(results.fits);
  EXPECT_FALSE(stale.alpha_beta(curves).has_value());
  // No fits at all.
  const nlohmann::json empty = nlohmann::json::object();
  EXPECT_FALSE(StoredFits(empty).alpha_beta(curves).has_value());
}

} // namespace
} // namespace cb::report
