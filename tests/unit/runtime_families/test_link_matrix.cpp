#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "links/link_fabric.hpp"
#include "links/link_matrix.hpp"

namespace cb {
namespace {

TEST(LinkMatrix, RowsAreSourcesColumnsDestinationsDiagonalNull) {
  LinkMatrix m(3);
  m.set(0, 1, 10);
  m.set(1, 0, 20);
  m.set(2, 0, 30);
  m.set(1, 1, 99); // a rank to itself is not a link: ignored
  const auto j = m.to_json();
  ASSERT_EQ(j.size(), 3u);
  for (const auto& row : j)
    ASSERT_EQ(row.size(), 3u);
  EXPECT_EQ(j[0][1], 10.0); // source 0 -> destination 1
  EXPECT_EQ(j[1][0], 20.0);
  EXPECT_EQ(j[2][0], 30.0);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(j[i][i].is_null());
  EXPECT_TRUE(j[0][2].is_null()); // not measured
  EXPECT_FALSE(m.at(1, 1).has_value());
}

TEST(LinkMatrix, JsonRoundTrip) {
  LinkMatrix m(2);
  m.set(0, 1, 1.5);
  const LinkMatrix back = LinkMatrix::from_json(m.to_json());
  EXPECT_EQ(back.size(), 2);
  EXPECT_EQ(back.at(0, 1), 1.5);
  EXPECT_FALSE(back.at(1, 0).has_value());
}

TEST(LinkMatrix, MalformedJsonIsInputError) {
  EXPECT_THROW(LinkMatrix::from_json(nlohmann::json::object()), InputError);
  EXPECT_THROW(LinkMatrix::from_json(nlohmann::json::parse("[[null, 1], [2]]")), InputError);
  EXPECT_THROW(LinkMatrix::from_json(nlohmann::json::parse(R"([[null, "x"], [2, null]])")),
               InputError);
}

TEST(LinkMatrix, SummaryIsOverMeasuredPairs) {
  LinkMatrix m(3);
  m.set(0, 1, 4);
  m.set(0, 2, 1);
  m.set(1, 0, 9);
  m.set(2, 1, 2);
  const PairSummary s = summarize_pairs(m);
  EXPECT_EQ(s.pairs, 4u);
  EXPECT_DOUBLE_EQ(s.median, 3.0); // of 1, 2, 4, 9
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 9.0);
  EXPECT_EQ(m.row_median(0), 2.5);    // 4 and 1 out of rank 0
  EXPECT_EQ(m.column_median(1), 3.0); // 4 and 2 into rank 1
  EXPECT_FALSE(LinkMatrix(2).row_median(0).has_value());
  EXPECT_EQ(summarize_pairs(LinkMatrix(2)).pairs, 0u);
}

TEST(LinkAccounting, BidirectionalCountsBothDirections) {
  EXPECT_EQ(pair_bytes_counted(64 << 20, false), 64.0 * (1 << 20));
  EXPECT_EQ(pair_bytes_counted(64 << 20, true), 128.0 * (1 << 20));
  EXPECT_DOUBLE_EQ(pair_gbps(2e9, 0.25), 8.0);
  EXPECT_EQ(pair_gbps(1, 0), 0.0);
}

TEST(LinkPairs, OrderedAndUnordered) {
  const auto ordered = ordered_pairs(3);
  ASSERT_EQ(ordered.size(), 6u); // n (n - 1)
  EXPECT_EQ(ordered.front(), std::make_pair(0, 1));
  EXPECT_EQ(ordered.back(), std::make_pair(2, 1));
  const auto unordered = unordered_pairs(4);
  ASSERT_EQ(unordered.size(), 6u); // n (n - 1) / 2
  for (const auto& [i, j] : unordered)
    EXPECT_LT(i, j);
  EXPECT_TRUE(ordered_pairs(1).empty());
}

TEST(LinkPairs, TierMatrixMarksPairsAcrossNodes) {
  const auto t = tier_matrix({0, 0, 1});
  EXPECT_TRUE(t[0][0].is_null());
  EXPECT_EQ(t[0][1], "intra");
  EXPECT_EQ(t[1][0], "intra");
  EXPECT_EQ(t[0][2], "inter");
  EXPECT_EQ(t[2][1], "inter");
}

TEST(LinkPairs, FormatShowsEveryCell) {
  LinkMatrix m(2);
  m.set(0, 1, 12.345);
  m.set(1, 0, 6.5);
  const std::string text = format_matrix(m, 2);
  EXPECT_NE(text.find("12.35"), std::string::npos);
  EXPECT_NE(text.find("6.50"), std::string::npos);
  EXPECT_NE(text.find("src\\dst"), std::string::npos);
}

// A 1,024-node matrix is not printed whole (10 MB of console per record): its worst pairs are,
// the lowest bandwidths, or the highest latencies.
TEST(LinkMatrix, ALargeMatrixPrintsItsWorstPairsOnly) {
  const int n = kMaxPrintedMatrix + 1;
  LinkMatrix m(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j)
        m.set(i, j, 100.0);
    }
  }
  m.set(3, 7, 40.0);
  m.set(7, 3, 250.0);
  const std::string bandwidth = format_matrix(m, 2);
  EXPECT_EQ(bandwidth.find("src\\dst"), std::string::npos);
  EXPECT_NE(bandwidth.find("33 x 33 matrix (in the results file); the 8 worst of 1056 pairs"),
            std::string::npos)
      << bandwidth;
  const auto first = bandwidth.find("\n") + 1;
  EXPECT_EQ(bandwidth.substr(first, bandwidth.find("\n", first) - first),
            "           3 -> 7            40.00");
  EXPECT_EQ(std::count(bandwidth.begin(), bandwidth.end(), '\n'), 9);
  const std::string latency = format_matrix(m, 2, true);
  EXPECT_NE(latency.find("           7 -> 3           250.00"), std::string::npos) << latency;
}

TEST(LinkPattern, WordsDifferBetweenRanksAndOffsets) {
  EXPECT_NE(link_pattern_word(0, 5), link_pattern_word(1, 5));
  EXPECT_NE(link_pattern_word(0, 5), link_pattern_word(0, 6));
  EXPECT_NE(link_pattern_word(0, 0), 0u); // a cleared destination never passes the check
}

} // namespace
} // namespace cb
