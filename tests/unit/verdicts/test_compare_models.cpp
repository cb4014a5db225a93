// compare's fitted scaling models: per curve both runs measured, the USL and Amdahl fits of each.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/scaling_fits.hpp"
#include "results/results_io.hpp"
#include "verdict_test_data.hpp"
#include "verdicts/cluster_compare.hpp"
#include "verdicts/compare_report.hpp"

using namespace cb;
using namespace cb::testing;

namespace {

// An aggregate memory bandwidth that follows the USL exactly at each GPU count.
ResultsFile usl_run(double alpha, double beta, const std::vector<int>& gpus) {
  std::vector<Record> records;
  for (int n : gpus) {
    Record r = metric_record("triad", n, {{"gbps", usl_throughput(alpha, beta, 100.0, n)}});
    r.suite = "compute";
    records.push_back(std::move(r));
  }
  return results_of(std::move(records));
}

const CurveFits& fits_of(const ScalingAnalysis& analysis, const ModelContrast& m) {
  for (const auto& c : analysis.curves) {
    const CurveKey& k = c.curve.key;
    if (k.suite == m.suite && k.case_name == m.case_name && k.metric == m.metric &&
        k.params == m.params)
      return c;
  }
  throw std::runtime_error("no fitted curve " + m.suite + "/" + m.case_name);
}

void expect_same_fits(const ScalingModels& shown, const CurveFits& fitted, const char* side) {
  ASSERT_TRUE(shown.usl && fitted.usl) << side;
  ASSERT_TRUE(shown.amdahl && fitted.amdahl) << side;
  EXPECT_EQ(shown.usl->ok, fitted.usl->ok) << side;
  EXPECT_DOUBLE_EQ(shown.usl->alpha, fitted.usl->alpha) << side;
  EXPECT_DOUBLE_EQ(shown.usl->beta, fitted.usl->beta) << side;
  EXPECT_DOUBLE_EQ(shown.usl->r2, fitted.usl->r2) << side;
  EXPECT_EQ(shown.usl->n_peak.has_value(), fitted.usl->n_peak.has_value()) << side;
  EXPECT_EQ(shown.usl->warnings, fitted.usl->warnings) << side;
  EXPECT_DOUBLE_EQ(shown.amdahl->serial_fraction, fitted.amdahl->serial_fraction) << side;
  EXPECT_DOUBLE_EQ(shown.amdahl->r2, fitted.amdahl->r2) << side;
}

const CompareContext kContext{"a.json", "b.json", 0.05, 0.95};

} // namespace

TEST(CompareModels, FixturesShowTheFitsOfEachRunAsFitDoes) {
  const ResultsFile h100 = load_results(verdict_fixture("cluster_h100.json"));
  const ResultsFile h200 = load_results(verdict_fixture("cluster_h200.json"));
  const ClusterComparison cmp = compare_clusters(h100, h200);
  ASSERT_EQ(cmp.models.size(), cmp.efficiency.size());
  ASSERT_EQ(cmp.models.size(), 2u); // all_reduce busbw and stream_triad gbps
  const ScalingAnalysis fit_a = analyse_scaling(h100);
  const ScalingAnalysis fit_b = analyse_scaling(h200);
  for (std::size_t i = 0; i < cmp.models.size(); ++i) {
    const ModelContrast& m = cmp.models[i];
    EXPECT_EQ(m.case_name, cmp.efficiency[i].case_name);
    EXPECT_EQ(m.metric, cmp.efficiency[i].metric);
    EXPECT_EQ(m.params, cmp.efficiency[i].params);
    expect_same_fits(m.a, fits_of(fit_a, m), "A");
    expect_same_fits(m.b, fits_of(fit_b, m), "B");
  }
  // Generated at 93 % efficiency on 8 GPUs on both clusters: about 1 % serial.
  const ModelContrast& triad = cmp.models[1];
  EXPECT_EQ(triad.case_name, "stream_triad");
  ASSERT_TRUE(triad.a.amdahl && triad.b.amdahl);
  EXPECT_NEAR(triad.a.amdahl->serial_fraction, 0.010, 0.002);
  EXPECT_NEAR(triad.b.amdahl->serial_fraction, 0.010, 0.002);
}

TEST(CompareModels, EachRunGetsItsOwnLaw) {
  const std::vector<int> gpus = {1, 2, 4, 8, 16, 32};
  // A: contention only (Amdahl with 5 % serial); B: a coherency cost that peaks at N* = 22.1.
  const ClusterComparison cmp =
      compare_clusters(usl_run(0.05, 0.0, gpus), usl_run(0.02, 0.002, gpus));
  ASSERT_EQ(cmp.models.size(), 1u);
  const ModelContrast& m = cmp.models[0];
  EXPECT_EQ(m.suite, "compute");
  EXPECT_EQ(m.case_name, "triad");
  EXPECT_EQ(m.metric, "gbps");
  ASSERT_TRUE(m.a.usl && m.a.usl->ok);
  ASSERT_TRUE(m.b.usl && m.b.usl->ok);
  EXPECT_NEAR(m.a.usl->alpha, 0.05, 1e-4);
  EXPECT_NEAR(m.a.usl->beta, 0.0, 1e-6);
  EXPECT_FALSE(m.a.usl->n_peak);
  ASSERT_TRUE(m.a.amdahl && m.a.amdahl->ok);
  EXPECT_NEAR(m.a.amdahl->serial_fraction, 0.05, 1e-4); // the USL with beta = 0 is Amdahl
  EXPECT_NEAR(m.b.usl->alpha, 0.02, 1e-4);
  EXPECT_NEAR(m.b.usl->beta, 0.002, 1e-5);
  ASSERT_TRUE(m.b.usl->n_peak);
  EXPECT_NEAR(*m.b.usl->n_peak, std::sqrt(0.98 / 0.002), 0.05);
  EXPECT_GT(m.b.usl->r2, 0.999);

  const std::string text = compare_report_markdown(cmp, kContext);
  const auto efficiency = text.find("## Scaling efficiency");
  const auto models = text.find("## Scaling models");
  ASSERT_NE(models, std::string::npos) << text;
  EXPECT_LT(efficiency, models);
  const std::string table = text.substr(models);
  EXPECT_NE(table.find("| run | USL alpha | USL beta | peak N* | USL R2 | Amdahl serial |"),
            std::string::npos)
      << table;
  // A has no peak and is Amdahl's law exactly; B peaks, which Amdahl cannot follow.
  EXPECT_NE(table.find("| A   | 0.0500    | 0.00     | none    | 1.000  | 0.0500        | 1.000 "),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| B   | 0.0200    | 0.00200  | 22.1    | 1.000  |"), std::string::npos)
      << table;

  const auto j = compare_report_json(cmp, kContext);
  ASSERT_EQ(j["models"].size(), 1u);
  const auto& jm = j["models"][0];
  EXPECT_EQ(jm["suite"], "compute");
  EXPECT_EQ(jm["case"], "triad");
  EXPECT_EQ(jm["metric"], "gbps");
  EXPECT_DOUBLE_EQ(jm["a"]["usl"]["alpha"].get<double>(), m.a.usl->alpha);
  EXPECT_TRUE(jm["a"]["usl"]["n_peak"].is_null());
  EXPECT_DOUBLE_EQ(jm["a"]["amdahl"]["serial_fraction"].get<double>(), m.a.amdahl->serial_fraction);
  EXPECT_DOUBLE_EQ(jm["b"]["usl"]["beta"].get<double>(), m.b.usl->beta);
  EXPECT_DOUBLE_EQ(jm["b"]["usl"]["n_peak"].get<double>(), *m.b.usl->n_peak);
  EXPECT_DOUBLE_EQ(jm["b"]["usl"]["r2"].get<double>(), m.b.usl->r2);
  EXPECT_TRUE(jm["b"]["usl"]["warnings"].is_array());
}

TEST(CompareModels, TooFewGpuCountsShowDashesAndSayWhy) {
  // Two GPU counts give an efficiency but cannot fit three USL parameters.
  const ClusterComparison cmp =
      compare_clusters(usl_run(0.05, 0.0, {1, 2}), usl_run(0.02, 0.002, {1, 2, 4, 8}));
  ASSERT_EQ(cmp.models.size(), 1u);
  const ModelContrast& m = cmp.models[0];
  ASSERT_TRUE(m.a.usl);
  EXPECT_FALSE(m.a.usl->ok);
  ASSERT_TRUE(m.b.usl);
  EXPECT_TRUE(m.b.usl->ok);

  const std::string text = compare_report_markdown(cmp, kContext);
  EXPECT_NE(text.find("| A   | -         | -        | -       | -      | -             | -"),
            std::string::npos)
      << text;
  const auto notes = text.find("Fit notes:");
  ASSERT_NE(notes, std::string::npos) << text;
  EXPECT_NE(
      text.find("- A, compute/triad bytes=1M (GB/s):\n  - USL: needs at least 3 points", notes),
      std::string::npos)
      << text.substr(notes);
  EXPECT_NE(text.find("  - Amdahl: needs at least 3 points", notes), std::string::npos);

  const auto j = compare_report_json(cmp, kContext);
  EXPECT_TRUE(j["models"][0]["a"]["usl"]["alpha"].is_null());
  EXPECT_FALSE(j["models"][0]["a"]["usl"]["warnings"].empty());
  EXPECT_TRUE(j["models"][0]["b"]["usl"]["alpha"].is_number());
}

TEST(CompareModels, LatencyAndSingleCountCurvesHaveNone) {
  // Latency is not a throughput and one GPU count says nothing about scaling.
  const ResultsFile a = results_of({metric_record("x", 2, {{"latency_us", 10}}),
                                    metric_record("x", 4, {{"latency_us", 12}}),
                                    metric_record("y", 8, {{"busbw_gbps", 100}})});
  const ResultsFile b = results_of({metric_record("x", 2, {{"latency_us", 9}}),
                                    metric_record("x", 4, {{"latency_us", 11}}),
                                    metric_record("y", 8, {{"busbw_gbps", 120}})});
  const ClusterComparison cmp = compare_clusters(a, b);
  EXPECT_EQ(cmp.cases.size(), 3u);
  EXPECT_TRUE(cmp.models.empty());
  EXPECT_EQ(compare_report_markdown(cmp, kContext).find("## Scaling models"), std::string::npos);
  EXPECT_TRUE(compare_report_json(cmp, kContext)["models"].empty());
}
