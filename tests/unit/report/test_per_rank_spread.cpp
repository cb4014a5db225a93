#include "report/per_rank_spread.hpp"

#include <gtest/gtest.h>

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

TEST(PerRankSpread, HeadlineMetricFirstThenKnownFigures) {
  const Record r = with_ranks({{{"rank", 0}, {"tflops", 780.0}, {"gbps", 1.0}},
                               {{"rank", 1}, {"tflops", 740.0}, {"gbps", 2.0}}});
  EXPECT_EQ(per_rank_spread(r, "tflops")->figure, "tflops");
  EXPECT_DOUBLE_EQ(per_rank_spread(r, "tflops")->min, 740.0);
  // busbw is not in the entries: the first known figure present speaks instead.
  EXPECT_EQ(per_rank_spread(r, "busbw_gbps")->figure, "gbps");
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
