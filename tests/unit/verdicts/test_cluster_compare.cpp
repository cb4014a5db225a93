#include <gtest/gtest.h>

#include "results/results_io.hpp"
#include "verdict_test_data.hpp"
#include "verdicts/cluster_compare.hpp"
#include "verdicts/compare_report.hpp"

using namespace cb;
using namespace cb::testing;

namespace {

const EnvironmentRow& row(const std::vector<EnvironmentRow>& rows, const std::string& field) {
  for (const auto& r : rows) {
    if (r.field == field)
      return r;
  }
  throw std::runtime_error("no row " + field);
}

} // namespace

TEST(CompareEnvironment, ListsGpuModelVersionsAndCounts) {
  const auto rows = environment_difference(load_results(verdict_fixture("cluster_h100.json")),
                                           load_results(verdict_fixture("cluster_h200.json")));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].field, "GPU model"); // first: it explains most differences
  EXPECT_EQ(rows[0].a, "8 x NVIDIA H100 80GB HBM3");
  EXPECT_EQ(rows[0].b, "8 x NVIDIA H200");
  EXPECT_TRUE(rows[0].differs);
  EXPECT_TRUE(row(rows, "driver").differs);
  EXPECT_EQ(row(rows, "nccl").a, "2.21.5");
  EXPECT_FALSE(row(rows, "mpi").differs);
  EXPECT_EQ(row(rows, "nodes").a, "1");
  EXPECT_EQ(row(rows, "GPUs").b, "8");
  EXPECT_EQ(row(rows, "GPU counts measured").a, "1, 2, 4, 8");
}

TEST(CompareEnvironment, AbsentFieldsShowADash) {
  const auto rows = environment_difference(results_of({}), results_of({}));
  EXPECT_EQ(row(rows, "GPU model").a, "-");
  EXPECT_EQ(row(rows, "driver").b, "-");
  EXPECT_FALSE(row(rows, "driver").differs);
}

TEST(ContrastCase, SpeedRatioIsAboveOneWhenBIsFaster) {
  const auto slow = lognormal_samples(1, 2e-3, 0.01, 20);
  const auto fast = lognormal_samples(2, 1e-3, 0.01, 20);
  const auto a = index_cases(results_of({timed_record("all_reduce", 2, slow)}));
  const auto b = index_cases(results_of({timed_record("all_reduce", 2, fast)}));
  const CaseContrast c = contrast_case(a.measured[0], b.measured[0], {});
  EXPECT_EQ(c.basis, kTimeQuantity);
  EXPECT_NEAR(c.speed.ratio, 2.0, 0.05);
  EXPECT_LT(c.speed.low, c.speed.ratio);
  EXPECT_GT(c.speed.high, c.speed.ratio);
  EXPECT_GT(c.speed.low, 1.9);
  EXPECT_TRUE(c.significant);
  EXPECT_EQ(c.metric, "busbw_gbps");
  EXPECT_NEAR(c.b_metric / c.a_metric, 2.0, 0.05);
  EXPECT_NEAR(c.a_time_s, 2e-3, 1e-4);
}

TEST(ContrastCase, ThroughputOnlyRecordsCompareTheirMetric) {
  const auto a = index_cases(results_of(
      {metric_record("x", 2, {{"latency_us", 10}}), metric_record("x", 2, {{"latency_us", 11}})}));
  const auto b = index_cases(results_of(
      {metric_record("x", 2, {{"latency_us", 5}}), metric_record("x", 2, {{"latency_us", 5.5}})}));
  const CaseContrast c = contrast_case(a.measured[0], b.measured[0], {});
  EXPECT_EQ(c.basis, "latency_us");
  EXPECT_NEAR(c.speed.ratio, 2.0, 1e-12); // half the latency: twice as fast
  EXPECT_FALSE(c.significant);            // two values a side cannot show it
  EXPECT_TRUE(std::isnan(c.a_time_s));
}

TEST(ContrastCase, OneValueAgainstARunIsTooFewToBeSignificant) {
  // 105 samples against one imported figure beyond all of them: the exact test's p is 2/106,
  // under 0.05, but one value says nothing of B's run-to-run spread.
  const auto many = lognormal_samples(1, 1e-4, 0.01, 105);
  const auto a = index_cases(results_of({timed_record("all_reduce", 2, many)}));
  const auto b = index_cases(results_of({timed_record("all_reduce", 2, {1.4e-4})}));
  const CaseContrast c = contrast_case(a.measured[0], b.measured[0], {});
  EXPECT_LT(c.p_value, 0.05);
  EXPECT_TRUE(c.too_few);
  EXPECT_FALSE(c.significant);
  const auto five = index_cases(
      results_of({timed_record("all_reduce", 2, {1.4e-4, 1.41e-4, 1.42e-4, 1.43e-4, 1.44e-4})}));
  const CaseContrast enough = contrast_case(a.measured[0], five.measured[0], {});
  EXPECT_FALSE(enough.too_few);
  EXPECT_TRUE(enough.significant);
}

TEST(CompareClusters, FixturesMatchCasesAndEfficiencies) {
  const ClusterComparison cmp =
      compare_clusters(load_results(verdict_fixture("cluster_h100.json")),
                       load_results(verdict_fixture("cluster_h200.json")));
  ASSERT_EQ(cmp.cases.size(), 7u); // all_reduce at 2, 4, 8 and stream_triad at 1, 2, 4, 8
  for (const auto& c : cmp.cases) {
    if (c.key.case_name == "stream_triad") {
      EXPECT_NEAR(c.speed.ratio, 4300.0 / 3000.0, 0.03); // the H200's memory bandwidth
      EXPECT_TRUE(c.significant);
    }
  }
  ASSERT_EQ(cmp.only_in_a.size(), 1u);
  EXPECT_EQ(cmp.only_in_a[0].key.case_name, "gemm");
  ASSERT_EQ(cmp.only_in_b.size(), 1u);
  EXPECT_EQ(cmp.only_in_b[0].key.case_name, "all_gather");

  ASSERT_EQ(cmp.efficiency.size(), 2u);
  const EfficiencyContrast& collective = cmp.efficiency[0];
  EXPECT_EQ(collective.case_name, "all_reduce");
  EXPECT_EQ(collective.base_gpus, 2);
  ASSERT_EQ(collective.rows.size(), 3u);
  EXPECT_DOUBLE_EQ(*collective.rows[0].a, 1.0);
  EXPECT_NEAR(*collective.rows[2].a, 0.90, 0.02); // generated at 90 % of busbw(2) on 8 GPUs
  const EfficiencyContrast& triad = cmp.efficiency[1];
  EXPECT_EQ(triad.base_gpus, 1);
  ASSERT_EQ(triad.rows.size(), 4u);
  EXPECT_NEAR(*triad.rows[3].b, 0.93, 0.02);

  const std::string text = compare_report_markdown(cmp, {"a.json", "b.json", 0.05, 0.95});
  const auto environment = text.find("## Environment");
  const auto cases = text.find("## Cases");
  const auto efficiency = text.find("## Scaling efficiency");
  EXPECT_LT(environment, cases);
  EXPECT_LT(cases, efficiency);
  EXPECT_NE(text.find("| GPU model"), std::string::npos);
  EXPECT_NE(text.find("95 % bootstrap interval"), std::string::npos);
  const auto j = compare_report_json(cmp, {"a.json", "b.json", 0.05, 0.95});
  EXPECT_EQ(j["cases"].size(), 7u);
  EXPECT_EQ(j["environment"][0]["field"], "GPU model");
  EXPECT_EQ(j["efficiency"][0]["points"].size(), 3u);
}
