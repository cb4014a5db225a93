#include <gtest/gtest.h>

#include "analysis/curves.hpp"
#include "analysis_test_data.hpp"

using namespace cb;
using test::make_record;

namespace {

Record copy_record(int gpus, double gbps, double bytes = 1 << 20, int samples = 5) {
  return make_record("compute", "copy", {{"bytes", bytes}}, gpus, {{"gbps", gbps}}, 1e-3, samples);
}

} // namespace

TEST(HeadlineMetric, PrefersBusBandwidthThenThroughputsThenLatency) {
  Record r = make_record("collectives", "all_reduce", {}, 2,
                         {{"time_us", 5}, {"algbw_gbps", 1}, {"busbw_gbps", 1}});
  EXPECT_EQ(headline_metric(r), "busbw_gbps");
  r.metrics = {{"gflops", 1}, {"tflops", 1}};
  EXPECT_EQ(headline_metric(r), "tflops");
  r.metrics = {{"latency_us", 3}};
  EXPECT_EQ(headline_metric(r), "latency_us");
  r.metrics = {{"time_us", 3}};
  EXPECT_EQ(headline_metric(r), "");
  EXPECT_TRUE(is_throughput_metric("gbps"));
  EXPECT_FALSE(is_throughput_metric("latency_us"));
}

TEST(ExtractCurves, GroupsByCaseAndParamsAndSortsByGpus) {
  ResultsFile f;
  f.records = {copy_record(4, 40), copy_record(1, 10), copy_record(2, 20), copy_record(1, 5, 4096),
               copy_record(2, 9, 4096)};
  f.records.push_back(make_record("compute", "triad", {{"bytes", 1 << 20}}, 1, {{"gbps", 7}}));
  const auto curves = extract_curves(f);
  ASSERT_EQ(curves.size(), 3u);
  EXPECT_EQ(curves[0].key.case_name, "copy");
  EXPECT_EQ(curves[0].key.params["bytes"], 1 << 20);
  EXPECT_EQ(curves[0].key.metric, "gbps");
  EXPECT_EQ(curves[0].gpus, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(curves[0].value, (std::vector<double>{10, 20, 40}));
  EXPECT_EQ(curves[1].gpus, (std::vector<int>{1, 2}));
  EXPECT_EQ(curves[1].value, (std::vector<double>{5, 9}));
  EXPECT_EQ(curves[2].key.case_name, "triad");
}

TEST(ExtractCurves, ParamsKeyOrderDoesNotSplitACurve) {
  ResultsFile f;
  f.records = {make_record("storage", "seq_read", nlohmann::json::parse(R"({"a":1,"b":2})"), 1,
                           {{"gbps", 1}}),
               make_record("storage", "seq_read", nlohmann::json::parse(R"({"b":2,"a":1})"), 2,
                           {{"gbps", 2}})};
  EXPECT_EQ(extract_curves(f).size(), 1u);
}

TEST(ExtractCurves, PerRankCountDoesNotSplitACollectiveCurve) {
  // all_gather of 64 bytes: 16 floats per rank on 1 GPU, 8 on 2, 4 on 4 - one curve.
  ResultsFile f;
  for (int gpus : {1, 2, 4}) {
    f.records.push_back(make_record("collectives", "all_gather",
                                    {{"bytes", 64}, {"count", 16 / gpus}, {"dtype", "float"}}, gpus,
                                    {{"busbw_gbps", 1.0 * gpus}}));
  }
  const auto curves = extract_curves(f);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].gpus, (std::vector<int>{1, 2, 4}));
  EXPECT_FALSE(curves[0].key.params.contains("count"));
  EXPECT_EQ(curves[0].key.params["bytes"], 64);
}

TEST(ExtractCurves, UsesOnlyOkAndNoisyRecords) {
  ResultsFile f;
  f.records = {copy_record(1, 10), copy_record(2, 20), copy_record(4, 40), copy_record(8, 80)};
  f.records[1].status = RecordStatus::noisy;
  f.records[2].status = RecordStatus::failed;
  f.records[3].status = RecordStatus::skipped;
  const auto curves = extract_curves(f);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].gpus, (std::vector<int>{1, 2}));
}

TEST(ExtractCurves, TheRecordWithMoreSamplesWinsAGpuCount) {
  ResultsFile f;
  f.records = {copy_record(2, 20, 1 << 20, 5), copy_record(2, 25, 1 << 20, 20),
               copy_record(2, 30, 1 << 20, 20), copy_record(1, 10)};
  const auto curves = extract_curves(f);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].gpus, (std::vector<int>{1, 2}));
  EXPECT_EQ(curves[0].value[1], 25); // more samples than the first, and first of the tie
}

TEST(ExtractCurves, RecordsNodesAndTiers) {
  ResultsFile f;
  for (int gpus : {2, 4, 8, 16, 32}) {
    f.records.push_back(test::all_reduce_record(1 << 20, gpus, 1e-3));
  }
  const auto curves = extract_curves(f);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].key.metric, "busbw_gbps");
  EXPECT_EQ(curves[0].nodes, (std::vector<int>{1, 1, 1, 2, 4}));
  EXPECT_EQ(curves[0].key.tier_info, "intra+inter");
}

TEST(ExtractCurves, LatencyOnlyRecordsMakeLatencyCurves) {
  ResultsFile f;
  f.records = {make_record("links", "p2p_latency", {}, 2, {{"latency_us", 2.5}})};
  const auto curves = extract_curves(f);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].key.metric, "latency_us");
}

TEST(ExtractCurves, EmptyResultsGiveNoCurves) {
  EXPECT_TRUE(extract_curves(ResultsFile{}).empty());
}
