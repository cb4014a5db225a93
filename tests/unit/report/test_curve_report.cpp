// Families, the curves shown, their rows and the efficiency they predict.
#include "report/curve_report.hpp"

#include <gtest/gtest.h>

#include "analysis/fits_json.hpp"
#include "report_test_data.hpp"
#include "results/results_io.hpp"

namespace cb::report {
namespace {

using test::add_usl_curve;
using test::make_record;

const FamilyReport& family(const std::vector<FamilyReport>& families, const std::string& suite) {
  for (const auto& f : families) {
    if (f.suite == suite)
      return f;
  }
  throw std::runtime_error("no family " + suite);
}

TEST(CurveReport, FamiliesInTheirOrderWithTheLargestSizeShown) {
  ResultsFile results;
  add_usl_curve(results, "storage", "seq_read", {{"block_bytes", 1u << 20}}, {1, 2, 4}, 0.1, 0.0);
  add_usl_curve(results, "compute", "copy", {{"bytes", 1u << 20}, {"dtype", "double"}}, {1, 2, 4},
                0.0, 0.0, 5);
  add_usl_curve(results, "compute", "copy", {{"bytes", 1u << 26}, {"dtype", "double"}}, {1, 2, 4},
                0.0, 0.0, 12);
  add_usl_curve(results, "compute", "copy", {{"bytes", 1u << 26}, {"dtype", "float"}}, {1, 2, 4},
                0.0, 0.0, 11);
  Record skipped = make_record("compute", "gemm", {{"m", 4096}}, 1, nlohmann::json::object());
  skipped.status = RecordStatus::skipped;
  skipped.reason = "built without OpenBLAS";
  results.records.push_back(skipped);

  const auto families = build_family_reports(results, analyse_scaling(results), {64, 1024});
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families[0].suite, "compute");
  EXPECT_EQ(families[1].suite, "storage");
  const FamilyReport& compute = families[0];
  EXPECT_EQ(compute.curves_total, 3u);
  ASSERT_EQ(compute.curves.size(), 2u); // double at 64M, float at 64M
  EXPECT_EQ(compute.curves[0].curve().key.params["bytes"], 1u << 26);
  EXPECT_EQ(compute.curves[0].label(), "copy bytes=64M dtype=double");
  EXPECT_EQ(compute.curves[1].curve().key.params["dtype"], "float");
  ASSERT_EQ(compute.not_run.size(), 1u);
  EXPECT_EQ(compute.not_run[0].case_name, "gemm");
  EXPECT_EQ(compute.not_run[0].reason, "built without OpenBLAS");
  EXPECT_TRUE(compute.alpha_beta_source.empty());
}

TEST(CurveReport, RowsCarryEfficiencyAndPerGpuSpread) {
  ResultsFile results;
  for (int n : {1, 2, 4}) {
    Record r = make_record("compute", "copy", {{"bytes", 1u << 26}}, n, {{"gbps", 10.0 * n * 0.9}});
    r.per_rank = nlohmann::json::array();
    for (int rank = 0; rank < n; ++rank) {
      r.per_rank.push_back({{"rank", rank}, {"gbps", 9.0 + rank}});
    }
    if (n == 1)
      r.metrics["gbps"] = 10.0;
    if (n == 4)
      r.status = RecordStatus::noisy;
    results.records.push_back(r);
  }
  const auto families = build_family_reports(results, analyse_scaling(results), {64});
  const CurveReport& c = family(families, "compute").curves.at(0);
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].gpus, 1);
  EXPECT_NEAR(*c.rows[0].efficiency, 1.0, 1e-12);
  EXPECT_NEAR(*c.rows[2].efficiency, 0.9, 1e-12);
  EXPECT_EQ(c.rows[2].status, RecordStatus::noisy);
  ASSERT_TRUE(c.rows[2].spread.has_value());
  EXPECT_DOUBLE_EQ(c.rows[2].spread->min, 9.0);
  EXPECT_DOUBLE_EQ(c.rows[2].spread->median, 10.5);
  EXPECT_DOUBLE_EQ(c.rows[2].spread->max, 12.0);
  EXPECT_EQ(c.fit_source, "computed");
}

TEST(CurveReport, ASingleGpuCountSaysNothingAboutEfficiency) {
  ResultsFile results;
  results.records.push_back(make_record(
      "links", "pair_bw", {{"bytes", 1u << 26}, {"direction", "uni"}}, 4, {{"gbps", 7.6}}));
  const auto families = build_family_reports(results, analyse_scaling(results), {64});
  const CurveReport& c = family(families, "links").curves.at(0);
  EXPECT_FALSE(c.rows[0].efficiency.has_value());
  EXPECT_FALSE(c.outlook[0].efficiency.has_value());
}

TEST(CurveReport, EfficiencyIsMeasuredWhereMeasuredElsePredicted) {
  ResultsFile results;
  add_usl_curve(results, "compute", "triad", {{"bytes", 1u << 26}}, {1, 2, 4, 8, 16}, 0.05, 0.002);
  const auto families = build_family_reports(results, analyse_scaling(results), {8, 64, 1024});
  const CurveReport& c = family(families, "compute").curves.at(0);
  ASSERT_TRUE(c.fits.usl && c.fits.usl->ok);
  ASSERT_EQ(c.outlook.size(), 3u);
  EXPECT_EQ(c.outlook[0].from, "measured");
  EXPECT_FALSE(c.outlook[0].extrapolated);
  EXPECT_NEAR(*c.outlook[0].efficiency, test::usl(0.05, 0.002, 10, 8) / (8 * 10.0), 1e-9);
  EXPECT_EQ(c.outlook[1].from, "USL");
  EXPECT_TRUE(c.outlook[1].extrapolated);
  // The fit recovers the law the data follow, so the prediction is the law's.
  EXPECT_NEAR(*c.outlook[1].efficiency, test::usl(0.05, 0.002, 10, 64) / (64 * 10.0), 1e-4);
  EXPECT_NEAR(*c.outlook[2].efficiency, test::usl(0.05, 0.002, 10, 1024) / (1024 * 10.0), 1e-4);

  // Without a USL fit, Amdahl's law speaks: E = S(N) / N.
  CurveReport amdahl_only = c;
  amdahl_only.fits.usl->ok = false;
  ASSERT_TRUE(amdahl_only.fits.amdahl && amdahl_only.fits.amdahl->ok);
  const EfficiencyEstimate e = efficiency_at(amdahl_only, 64);
  EXPECT_EQ(e.from, "Amdahl");
  const double s = amdahl_only.fits.amdahl->serial_fraction;
  EXPECT_NEAR(*e.efficiency, 1 / (s + (1 - s) / 64) / 64, 1e-12);
  // Nothing fitted: nothing predicted beyond the measured counts.
  amdahl_only.fits.amdahl->ok = false;
  EXPECT_FALSE(efficiency_at(amdahl_only, 64).efficiency.has_value());
  EXPECT_TRUE(efficiency_at(amdahl_only, 4).efficiency.has_value());
}

TEST(CurveReport, CollectivesStartAtTwoGpus) {
  ResultsFile results;
  for (int n : {1, 2, 4, 8}) {
    results.records.push_back(make_record("collectives", "all_reduce",
                                          {{"bytes", 1u << 25}, {"in_place", false}}, n,
                                          {{"busbw_gbps", n == 1 ? 0.0 : 100.0 / (1 + 0.05 * n)}}));
  }
  const auto families = build_family_reports(results, analyse_scaling(results), {1, 64});
  const CurveReport& c = family(families, "collectives").curves.at(0);
  EXPECT_EQ(c.fits.efficiency.base_gpus, 2);
  EXPECT_FALSE(c.rows[0].efficiency.has_value());
  EXPECT_NEAR(*c.rows[1].efficiency, 1.0, 1e-12);
  EXPECT_NEAR(*c.rows[3].efficiency, (1 + 0.1) / (1 + 0.4), 1e-12);
  EXPECT_FALSE(c.outlook[0].efficiency.has_value()); // no efficiency on one GPU
  EXPECT_EQ(family(families, "collectives").alpha_beta_source, "computed");
}

TEST(CurveReport, ACollectivesRowFindsItsRecordThoughTheRecordKeepsItsElementCount) {
  // As a run writes them: params.count beside bytes, per-rank figures, a straggler on 4 GPUs.
  ResultsFile results;
  for (int n : {2, 4}) {
    Record r = make_record("collectives", "all_reduce",
                           {{"bytes", 1u << 20}, {"count", 1u << 18}, {"in_place", false}}, n,
                           {{"busbw_gbps", 100.0}});
    for (int rank = 0; rank < n; ++rank)
      r.per_rank[static_cast<std::size_t>(rank)]["busbw_gbps"] = 100.0 + rank;
    r.samples_s = {1e-3, 1e-3, 1e-3, 2e-3};
    r.stats = summarize(r.samples_s);
    if (n == 4)
      r.straggler = StragglerRank{2, "n1", 2, 0.9, 0.7e-3, 1e-3};
    results.records.push_back(std::move(r));
  }
  const auto families = build_family_reports(results, analyse_scaling(results), {64});
  const CurveReport& c = family(families, "collectives").curves.at(0);
  ASSERT_EQ(c.rows.size(), 2u);
  for (const CurveRow& row : c.rows) {
    EXPECT_TRUE(row.spread) << row.gpus;
    EXPECT_EQ(row.status, RecordStatus::ok);
    EXPECT_NEAR(row.spike, (1e-3 + 0.97 * 1e-3) / 1e-3, 1e-9); // p99 at position 2.97
  }
  EXPECT_FALSE(c.rows[0].straggler);
  ASSERT_TRUE(c.rows[1].straggler);
  EXPECT_EQ(c.rows[1].straggler->rank, 2);
}

TEST(CurveReport, UsesTheFitsSectionWhileItMatches) {
  ResultsFile results;
  add_usl_curve(results, "compute", "triad", {{"bytes", 1u << 26}}, {1, 2, 4, 8, 16}, 0.05, 0.002);
  store_fits(results, analyse_scaling(results));
  results.fits["curves"][0]["usl"]["alpha"] = 0.5; // visibly not what the data give
  {
    const auto families = build_family_reports(results, analyse_scaling(results), {64});
    const CurveReport& c = family(families, "compute").curves.at(0);
    EXPECT_EQ(c.fit_source, "fits section");
    EXPECT_DOUBLE_EQ(c.fits.usl->alpha, 0.5);
  }
  results.records.back().metrics["gbps"] = 50.0; // measured again after the fit
  const auto families = build_family_reports(results, analyse_scaling(results), {64});
  const CurveReport& c = family(families, "compute").curves.at(0);
  EXPECT_EQ(c.fit_source, "computed");
  EXPECT_LT(c.fits.usl->alpha, 0.5);
}

TEST(CurveReport, HostClusterFixture) {
  const ResultsFile results = load_results(test::fixture("plots/host_cluster.json"));
  const auto families = build_family_reports(results, analyse_scaling(results), {64, 1024});
  ASSERT_EQ(families.size(), 4u);
  EXPECT_EQ(families[0].suite, "compute");
  EXPECT_EQ(families[1].suite, "links");
  EXPECT_EQ(families[2].suite, "collectives");
  EXPECT_EQ(families[3].suite, "storage");
  const FamilyReport& compute = families[0];
  EXPECT_EQ(compute.not_run.size(), 2u); // gemm skipped, fma failed
  const CurveReport& copy = compute.curves.at(0);
  EXPECT_EQ(copy.curve().key.case_name, "copy");
  ASSERT_EQ(copy.rows.size(), 4u);
  EXPECT_NEAR(*copy.rows[1].efficiency, 17.740878 / (2 * 12.023985), 1e-9);
  ASSERT_TRUE(copy.rows[1].spread.has_value());
  EXPECT_DOUBLE_EQ(copy.rows[1].spread->min, 8.902666);
  EXPECT_DOUBLE_EQ(copy.rows[1].spread->max, 8.94016);
  const FamilyReport& collectives = families[2];
  // all_reduce in- and out-of-place and all_gather out-of-place, each at the largest size.
  EXPECT_EQ(collectives.curves.size(), 3u);
  EXPECT_GT(collectives.curves_total, 3u);
  for (const auto& c : collectives.curves)
    EXPECT_EQ(c.curve().key.params["bytes"], 16777216u);
  EXPECT_FALSE(collectives.ring_all_reduce.empty());
  EXPECT_FALSE(collectives.hockney.empty());
}

} // namespace
} // namespace cb::report
