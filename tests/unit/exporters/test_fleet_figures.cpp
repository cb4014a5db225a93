// Each GPU's and node's own figures: one record per case, DCGM's labels, a node's mean per GPU.
#include <gtest/gtest.h>

#include "exporters/fleet_figures.hpp"
#include "prom_lookup.hpp"

namespace cb {
namespace {

using test::family;
using test::label;

Record gemm(int gpus, double aggregate, double per_gpu, double slow_gpu) {
  Record r;
  r.suite = "compute";
  r.case_name = "gemm";
  r.params = {{"dtype", "bf16"}, {"n", gpus == 16 ? 8192 : 4096}};
  r.gpus = gpus;
  r.nodes = gpus / 8;
  r.metrics = {{"tflops", aggregate}, {"time_us", 100}};
  for (int rank = 0; rank < gpus; ++rank) {
    r.per_rank.push_back({{"rank", rank},
                          {"host", "node" + std::to_string(rank / 8)},
                          {"device", rank % 8},
                          {"uuid", "GPU-" + std::to_string(rank)},
                          {"tflops", rank == 3 ? slow_gpu : per_gpu}});
  }
  return r;
}

TEST(FleetFigures, TheLargestCountStandsForTheCaseWithDcgmLabels) {
  ResultsFile results;
  results.records = {gemm(8, 8000, 1000, 1000), gemm(16, 15000, 950, 500),
                     gemm(16, 14000, 900, 900)};
  PromDocument doc;
  add_fleet_figures(doc, results, "report");
  const PromFamily* gpu = family(doc, "clusterbench_gpu_tflops");
  ASSERT_NE(gpu, nullptr);
  ASSERT_EQ(gpu->samples.size(), 16u); // one record of 16 GPUs: the better one
  const PromSample& slow = gpu->samples[3];
  EXPECT_EQ(slow.value, 500);
  EXPECT_EQ(label(slow, "Hostname"), "node0");
  EXPECT_EQ(label(slow, "gpu"), "3");
  EXPECT_EQ(label(slow, "UUID"), "GPU-3");
  EXPECT_EQ(label(slow, "rank"), "3");
  EXPECT_EQ(label(slow, "case"), "gemm");
  EXPECT_EQ(label(slow, "command"), "report");
  EXPECT_EQ(label(gpu->samples[9], "Hostname"), "node1");
  EXPECT_EQ(label(gpu->samples[9], "gpu"), "1");

  const PromFamily* node = family(doc, "clusterbench_node_tflops");
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(node->samples.size(), 2u);
  EXPECT_EQ(label(node->samples[0], "Hostname"), "node0");
  EXPECT_DOUBLE_EQ(node->samples[0].value, (7 * 950 + 500) / 8.0);
  EXPECT_DOUBLE_EQ(node->samples[1].value, 950);
  EXPECT_EQ(label(node->samples[1], "gpus"), "8");
}

TEST(FleetFigures, TimesAreInSecondsAndRecordsThatDidNotRunAreLeftOut) {
  Record skipped = gemm(8, 1, 1, 1);
  skipped.status = RecordStatus::skipped;
  Record latency;
  latency.suite = "links";
  latency.case_name = "pair_latency";
  latency.gpus = 2;
  latency.per_rank = {{{"rank", 0}, {"host", "a"}, {"gbps", 12.5}}};
  ResultsFile results;
  results.records = {skipped, latency};
  PromDocument doc;
  add_fleet_figures(doc, results, "report");
  EXPECT_EQ(family(doc, "clusterbench_gpu_tflops"), nullptr);
  const PromFamily* links = family(doc, "clusterbench_gpu_bandwidth_gbs");
  ASSERT_NE(links, nullptr);
  EXPECT_EQ(links->samples[0].value, 12.5);
  EXPECT_EQ(label(links->samples[0], "gpu"), ""); // not said: left out
}

} // namespace
} // namespace cb
