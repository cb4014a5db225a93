#include <gtest/gtest.h>

#include "verdict_test_data.hpp"
#include "verdicts/case_matching.hpp"

using namespace cb;
using namespace cb::testing;

TEST(CaseMatching, IdentityIsSuiteCaseParamsAndGpus) {
  const Record r = timed_record("all_reduce", 2, {1e-3});
  Record other_gpus = r, other_params = r, other_case = r, other_suite = r, other_nodes = r;
  other_gpus.gpus = 4;
  other_params.params["bytes"] = 2097152;
  other_case.case_name = "all_gather";
  other_suite.suite = "compute";
  other_nodes.nodes = 2; // not part of the identity
  EXPECT_NE(key_of(r).id(), key_of(other_gpus).id());
  EXPECT_NE(key_of(r).id(), key_of(other_params).id());
  EXPECT_NE(key_of(r).id(), key_of(other_case).id());
  EXPECT_NE(key_of(r).id(), key_of(other_suite).id());
  EXPECT_EQ(key_of(r).id(), key_of(other_nodes).id());
}

TEST(CaseMatching, ParamKeyOrderDoesNotMatter) {
  const auto a = nlohmann::json::parse(R"({"bytes": 8, "dtype": "float"})");
  const auto b = nlohmann::json::parse(R"({"dtype": "float", "bytes": 8})");
  EXPECT_EQ(key_of(timed_record("x", 1, {1}, a)).id(), key_of(timed_record("x", 1, {1}, b)).id());
}

TEST(CaseMatching, RecordsOfOneIdentityArePooled) {
  const auto index = index_cases(
      results_of({timed_record("all_reduce", 2, {1, 2}), timed_record("all_reduce", 4, {5}),
                  timed_record("all_reduce", 2, {3})}));
  ASSERT_EQ(index.measured.size(), 2u);
  EXPECT_EQ(index.measured[0].samples_s, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(index.measured[0].record_metrics.size(), 2u);
  EXPECT_EQ(index.measured[1].key.gpus, 4);
}

TEST(CaseMatching, SkippedAndFailedRecordsMeasureNothingButExplainWhy) {
  Record skipped = timed_record("all_reduce", 8, {});
  skipped.status = RecordStatus::skipped;
  skipped.reason = "needs 8 GPUs, 2 visible";
  Record noisy = timed_record("all_reduce", 2, {1, 2});
  noisy.status = RecordStatus::noisy;
  const auto a = index_cases(results_of({timed_record("all_reduce", 8, {1}), noisy}));
  const auto b = index_cases(
      results_of({skipped, timed_record("all_reduce", 2, {1}), timed_record("alltoall", 2, {1})}));
  EXPECT_TRUE(a.measured[1].noisy);
  ASSERT_EQ(b.unmeasured.size(), 1u);
  const CaseMatch match = match_cases(a, b);
  ASSERT_EQ(match.both.size(), 1u);
  EXPECT_EQ(match.both[0].first->key.gpus, 2);
  ASSERT_EQ(match.only_in_a.size(), 1u);
  EXPECT_EQ(match.only_in_a[0].key.gpus, 8);
  EXPECT_EQ(match.only_in_a[0].note, "skipped: needs 8 GPUs, 2 visible");
  ASSERT_EQ(match.only_in_b.size(), 1u);
  EXPECT_EQ(match.only_in_b[0].key.case_name, "alltoall");
  EXPECT_EQ(match.only_in_b[0].note, "");
}

TEST(CaseMatching, SamplesOnBothSidesAreComparedAsTime) {
  const auto a = index_cases(results_of({timed_record("x", 1, {1, 2, 3})}));
  const auto b = index_cases(results_of({timed_record("x", 1, {4, 5})}));
  const auto m = common_measure(a.measured[0], b.measured[0]);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first.quantity, kTimeQuantity);
  EXPECT_EQ(m->first.better, Better::lower);
  EXPECT_EQ(m->second.values, (std::vector<double>{4, 5}));
}

TEST(CaseMatching, ThroughputOnlyRecordsUseTheHeadlineMetric) {
  const auto a = index_cases(results_of({metric_record("x", 2, {{"busbw_gbps", 100}}),
                                         metric_record("x", 2, {{"busbw_gbps", 110}})}));
  const auto b = index_cases(results_of({timed_record("x", 2, {1e-5, 2e-5})}));
  const auto m = common_measure(a.measured[0], b.measured[0]);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first.quantity, "busbw_gbps");
  EXPECT_EQ(m->first.better, Better::higher);
  EXPECT_EQ(m->first.values, (std::vector<double>{100, 110}));
  EXPECT_EQ(m->second.values.size(), 1u); // one figure per record on the timed side too
}

TEST(CaseMatching, LatencyIsLowerIsBetterAndPriorityIsKept) {
  const auto a = index_cases(results_of({metric_record("x", 2, {{"latency_us", 5}, {"gbps", 1}})}));
  const auto b = index_cases(results_of({metric_record("x", 2, {{"latency_us", 6}})}));
  EXPECT_EQ(headline_metric_of(a.measured[0])->name, "gbps");
  const auto m = common_measure(a.measured[0], b.measured[0]);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first.quantity, "latency_us");
  EXPECT_EQ(m->first.better, Better::lower);
}

TEST(CaseMatching, NoSharedFigureMeansNoMeasure) {
  const auto a = index_cases(results_of({metric_record("x", 2, {{"gbps", 5}})}));
  const auto b = index_cases(results_of({metric_record("x", 2, {{"tflops", 6}})}));
  EXPECT_FALSE(common_measure(a.measured[0], b.measured[0]));
}

TEST(CaseMatching, DescribesACaseWithItsGpuCount) {
  CaseKey key{"collectives", "all_reduce", {{"bytes", 1000}}, 1};
  EXPECT_EQ(describe_case(key), "collectives/all_reduce bytes=1000, 1 GPU");
  key.gpus = 8;
  EXPECT_EQ(describe_case(key), "collectives/all_reduce bytes=1000, 8 GPUs");
}
