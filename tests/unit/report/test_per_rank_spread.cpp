#include "report/per_rank_spread.hpp"

#include <gtest/gtest.h>

#include "results/rank_identity.hpp"

#include <string>
#include <vector>

namespace cb::report {
namespace {

Record with_ranks(nlohmann::json per_rank) {
  Record r;
  r.per_rank = std::move(per_rank);
  return r;
}

TEST(PerRankSpread, MinMedianMaxAndCv) {
  const Record r = with_ranks({{{"rank", 0}, {"gbps", 4.0}},
                               {{"rank", 1}, {"gbps", 6.0}},
                               {{"rank", 2}, {"gbps", 5.0}},
                               {{"rank", 3}, {"gbps", 5.0}}});
  const auto s = per_rank_spread(r, "gbps");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->figure, "gbps");
  EXPECT_EQ(s->count, 4);
  EXPECT_DOUBLE_EQ(s->min, 4.0);
  EXPECT_DOUBLE_EQ(s->median, 5.0);
  EXPECT_DOUBLE_EQ(s->max, 6.0);
  // Sample standard deviation sqrt(2/3) over the mean 5.
  EXPECT_NEAR(s->cv, std::sqrt(2.0 / 3.0) / 5.0, 1e-12);
}

TEST(PerRankSpread, ACollectivesFiguresIncludeWaiting) {
  Record r = with_ranks({{{"rank", 0}, {"gbps", 4.0}}, {{"rank", 1}, {"gbps", 6.0}}});
  for (const char* suite : {"compute", "storage", "workload", "links"}) {
    r.suite = suite;
    EXPECT_FALSE(per_rank_spread(r, "gbps")->includes_waiting) << suite;
  }
  r.suite = "collectives";
  EXPECT_TRUE(per_rank_spread(r, "gbps")->includes_waiting);
}

TEST(PerRankSpread, NamesTheSlowestRank) {
  const Record r = with_ranks({{{"rank", 0}, {"host", "n1"}, {"device", 0}, {"gbps", 5.0}},
                               {{"rank", 1}, {"host", "n1"}, {"device", 1}, {"gbps", 4.0}},
                               {{"rank", 2}, {"host", "n2"}, {"device", 0}, {"gbps", 4.5}}});
  const auto s = per_rank_spread(r, "gbps");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->slowest["rank"], 1);
  EXPECT_EQ(describe_rank(s->slowest), "rank 1 (n1 device 1)");
  EXPECT_EQ(describe_rank({{"rank", 3}}), "rank 3");
  EXPECT_EQ(describe_rank({{"host", "n4"}}), "a rank (n4)");
  EXPECT_EQ(describe_rank("x"), "a rank");
}

// A latency's slowest rank is its highest: the lowest latency is the fastest rank.
TEST(PerRankSpread, ALatencysSlowestRankIsItsHighest) {
  const Record r = with_ranks({{{"rank", 0}, {"latency_us", 2.0}},
                               {{"rank", 1}, {"latency_us", 8.0}},
                               {{"rank", 2}, {"latency_us", 2.0}},
                               {{"rank", 3}, {"latency_us", 1.0}}});
  const auto s = per_rank_spread(r, "latency_us");
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(s->lower_is_better);
  EXPECT_EQ(s->slowest["rank"], 1);
  EXPECT_DOUBLE_EQ(s->slowest_share(), 2.0 / 8.0); // the median over the highest
  // A figure outside the table, a time by its suffix.
  const Record own =
      with_ranks({{{"rank", 0}, {"in_latency_us", 3.0}}, {{"rank", 1}, {"in_latency_us", 6.0}}});
  EXPECT_EQ(per_rank_spread(own, "in_latency_us")->slowest["rank"], 1);
  // A rate: the lowest, as before.
  const Record rate = with_ranks({{{"rank", 0}, {"gbps", 4.0}}, {{"rank", 1}, {"gbps", 8.0}}});
  EXPECT_DOUBLE_EQ(per_rank_spread(rate, "gbps")->slowest_share(), 4.0 / 6.0);
}

// Entries that leave the rank's host and device to the run header (results/rank_identity.hpp)
// still name the slowest rank's machine.
TEST(PerRankSpread, TheSlowestRanksMachineComesFromTheHeader) {
  const nlohmann::json run = {
      {"id", "r1"},
      {"hosts",
       {{{"host", "gpu-a"},
         {"node", 0},
         {"devices", {{{"index", 0}, {"rank", 0}}, {{"index", 1}, {"rank", 1}}}}}}}};
  Record r = with_ranks({{{"rank", 0}, {"gbps", 5.0}}, {{"rank", 1}, {"gbps", 4.0}}});
  r.per_rank_run = "r1";
  r.identities = std::make_shared<const RankIdentities>(run);
  const auto s = per_rank_spread(r, "gbps");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(describe_rank(s->slowest), "rank 1 (gpu-a device 1)");
}

TEST(PerRankSpread, HeadlineMetricFirstThenKnownFigures) {
  const Record r = with_ranks({{{"rank", 0}, {"tflops", 780.0}, {"gbps", 1.0}},
                               {{"rank", 1}, {"tflops", 740.0}, {"gbps", 2.0}}});
  EXPECT_EQ(per_rank_spread(r, "tflops")->figure, "tflops");
  EXPECT_DOUBLE_EQ(per_rank_spread(r, "tflops")->min, 740.0);
  // busbw is not in the entries: the first known figure present speaks instead.
  EXPECT_EQ(per_rank_spread(r, "busbw_gbps")->figure, "gbps");
}

TEST(PerRankSpread, KnownFiguresInTheTablesPerRankOrder) {
  // Without the curve's metric: gbps, busbw_gbps, algbw_gbps, tflops, gflops, the first present.
  const nlohmann::json all = {{"gflops", 1.0},     {"tflops", 2.0}, {"algbw_gbps", 3.0},
                              {"busbw_gbps", 4.0}, {"gbps", 5.0},   {"latency_us", 6.0}};
  const std::vector<std::string> order = {"gbps", "busbw_gbps", "algbw_gbps", "tflops", "gflops"};
  nlohmann::json entry = all;
  auto figure = [&](const std::string& metric) {
    const auto s = per_rank_spread(with_ranks(nlohmann::json::array({entry})), metric);
    return s ? s->figure : "none";
  };
  for (const auto& expected : order) {
    EXPECT_EQ(figure(""), expected);
    entry.erase(expected);
  }
  // A latency is no per-rank throughput: it is never picked unless it is the curve's metric.
  EXPECT_EQ(figure(""), "none");
  EXPECT_EQ(figure("latency_us"), "latency_us");
}

TEST(PerRankSpread, SkipsEntriesWithoutANumber) {
  const Record r = with_ranks({{{"rank", 0}, {"gbps", "fast"}},
                               {{"rank", 1}, {"gbps", 3.0}},
                               {{"rank", 2}},
                               "not an object"});
  const auto s = per_rank_spread(r, "gbps");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->count, 1);
  EXPECT_DOUBLE_EQ(s->median, 3.0);
  EXPECT_DOUBLE_EQ(s->cv, 0.0);
}

TEST(PerRankSpread, NoneWhenRanksReportNoFigure) {
  EXPECT_FALSE(per_rank_spread(with_ranks({{{"rank", 0}, {"host", "n1"}}}), "busbw_gbps"));
  EXPECT_FALSE(per_rank_spread(with_ranks(nlohmann::json::array()), "gbps"));
}

} // namespace
} // namespace cb::report
