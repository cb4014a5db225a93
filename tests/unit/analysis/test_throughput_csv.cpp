#include <gtest/gtest.h>

#include <sstream>

#include "analysis/throughput_csv.hpp"
#include "core/error.hpp"

using namespace cb;

namespace {

ThroughputTable parse(const std::string& text) {
  std::istringstream in(text);
  return parse_throughput_csv(in, "t.csv");
}

std::string error_for(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(ThroughputCsv, ReadsRows) {
  const auto t = parse("n,throughput\n1,64.9\n18,995.9\n36,1652.4\n");
  EXPECT_EQ(t.n, (std::vector<double>{1, 18, 36}));
  EXPECT_EQ(t.throughput, (std::vector<double>{64.9, 995.9, 1652.4}));
}

TEST(ThroughputCsv, ToleratesCrlfSpacesBlankLinesAndABom) {
  const auto t = parse("\xEF\xBB\xBFn,throughput\r\n\r\n1, 10\r\n2 ,19\r\n4,36\r\n\n");
  EXPECT_EQ(t.n.size(), 3u);
  EXPECT_EQ(t.throughput[1], 19);
}

TEST(ThroughputCsv, HeaderMustBeExact) {
  EXPECT_EQ(error_for("n\n1\n2\n3\n"),
            "t.csv: line 1: the header must be exactly 'n,throughput', got 'n'");
  EXPECT_NE(error_for("gpus,throughput\n1,1\n2,2\n3,3\n").find("header"), std::string::npos);
  EXPECT_NE(error_for("").find("empty"), std::string::npos);
}

TEST(ThroughputCsv, BadFieldsNameRowAndField) {
  EXPECT_EQ(error_for("n,throughput\n1,10\n2,abc\n4,30\n"),
            "t.csv: row 2 (line 3), field 'throughput': 'abc' is not a number");
  EXPECT_EQ(error_for("n,throughput\n1,10\nx,20\n4,30\n"),
            "t.csv: row 2 (line 3), field 'n': 'x' is not a number");
  EXPECT_EQ(error_for("n,throughput\n1,10\n2\n4,30\n"),
            "t.csv: row 2 (line 3): missing field 'throughput'");
  EXPECT_NE(error_for("n,throughput\n1,10,3\n2,1\n4,30\n").find("row 1 (line 2): 3 fields"),
            std::string::npos);
  EXPECT_NE(error_for("n,throughput\n1,10\n2,\n4,30\n").find("field 'throughput': ''"),
            std::string::npos);
}

TEST(ThroughputCsv, NonPositiveValuesAreRefused) {
  EXPECT_EQ(error_for("n,throughput\n0,10\n2,20\n4,30\n"),
            "t.csv: row 1 (line 2), field 'n': 0 must be greater than 0");
  EXPECT_NE(error_for("n,throughput\n1,10\n2,-20\n4,30\n").find("field 'throughput': -20"),
            std::string::npos);
  EXPECT_NE(error_for("n,throughput\n1,10\n2,inf\n4,30\n").find("not a number"), std::string::npos);
}

TEST(ThroughputCsv, CountsAreWholeAndFiguresBounded) {
  EXPECT_EQ(error_for("n,throughput\n1,10\n1.5,20\n4,30\n"),
            "t.csv: row 2 (line 3), field 'n': 1.5 is not a whole count of 1..1000000");
  EXPECT_NE(
      error_for("n,throughput\n1,10\n99999999999999999999,20\n4,30\n").find("not a whole count"),
      std::string::npos);
  EXPECT_EQ(error_for("n,throughput\n1,10\n2,1e308\n4,30\n"),
            "t.csv: row 2 (line 3), field 'throughput': 1e308 is above 1e15; give it in a larger "
            "unit");
  EXPECT_EQ(parse("n,throughput\n1,1e15\n2,2e14\n1000000,3\n").n.back(), 1e6);
}

TEST(ThroughputCsv, NeedsThreeRows) {
  EXPECT_EQ(error_for("n,throughput\n1,10\n2,20\n"), "t.csv: 2 data rows; a fit needs at least 3");
  EXPECT_EQ(error_for("n,throughput\n"), "t.csv: 0 data rows; a fit needs at least 3");
}

TEST(ThroughputCsv, NeedsThreeDifferentCounts) {
  EXPECT_EQ(error_for("n,throughput\n1,10\n1,11\n1,9\n"),
            "t.csv, field 'n': 3 data rows but 1 different value of n (1); a fit needs at least 3");
  EXPECT_EQ(error_for("n,throughput\n1,10\n2,19\n1,11\n2,18\n"),
            "t.csv, field 'n': 4 data rows but 2 different values of n (1, 2); a fit needs at "
            "least 3");
  EXPECT_EQ(parse("n,throughput\n1,10\n2,19\n2,18\n4,30\n").n.size(), 4u);
}

TEST(ThroughputCsv, MissingFileNamesIt) {
  try {
    read_throughput_csv("/nonexistent/throughput.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/throughput.csv: cannot open", 0), 0u);
  }
}
