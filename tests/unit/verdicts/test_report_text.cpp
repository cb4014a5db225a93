#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "verdicts/report_text.hpp"

using namespace cb;

TEST(VerdictReportText, SecondsInReadableUnits) {
  EXPECT_EQ(format_seconds(2.5), "2.50 s");
  EXPECT_EQ(format_seconds(1.234e-3), "1.23 ms");
  EXPECT_EQ(format_seconds(12.34e-6), "12.3 us");
  EXPECT_EQ(format_seconds(812e-9), "812 ns");
  EXPECT_EQ(format_seconds(std::nan("")), "-");
}

TEST(VerdictReportText, FiguresKeepSignificantDigits) {
  EXPECT_EQ(format_figure_padded(412.345), "412.3");
  EXPECT_EQ(format_figure_padded(11644.2), "11644");
  EXPECT_EQ(format_figure_padded(0.01, 2), "0.010");
  EXPECT_EQ(format_figure_padded(1.0123, 3), "1.01");
  EXPECT_EQ(format_figure_padded(0), "0.000");
  EXPECT_EQ(format_figure_padded(2.5e-5), "2.500e-05");
  EXPECT_EQ(format_figure_padded(std::numeric_limits<double>::infinity()), "inf");
}

TEST(VerdictReportText, Changes) {
  EXPECT_EQ(format_change(0.1023), "+10.2 %");
  EXPECT_EQ(format_change(-0.152), "-15.2 %");
}

TEST(VerdictReportText, QuantitiesCarryTheirUnits) {
  EXPECT_EQ(quantity_label("time_s"), "time");
  EXPECT_EQ(quantity_label("busbw_gbps"), "busbw GB/s");
  EXPECT_EQ(quantity_label("gbps"), "GB/s");
  EXPECT_EQ(quantity_label("latency_us"), "latency us");
  EXPECT_EQ(quantity_label("widgets"), "widgets");
  EXPECT_EQ(format_quantity("busbw_gbps", 412.34), "412.3 GB/s");
  EXPECT_EQ(format_quantity("tflops", 750), "750.0 TFLOP/s");
  EXPECT_EQ(format_quantity("time_s", 1.5e-3), "1.50 ms");
}

TEST(VerdictReportText, MarkdownTableLinesUpAndEscapesPipes) {
  MarkdownTable table({"case", "value"});
  table.add_row({"all_reduce", "1"});
  table.add_row({"a|b"}); // short rows are padded
  EXPECT_EQ(table.str(), "| case       | value |\n"
                         "|------------|-------|\n"
                         "| all_reduce | 1     |\n"
                         "| a\\|b       |       |\n");
}

TEST(ReportText, PercentCappedWhereTheFigureMeansNothingMore) {
  EXPECT_EQ(format_percent_capped(0.187), "18.7 %");
  EXPECT_EQ(format_percent_capped(0.0), "0.0 %");
  EXPECT_EQ(format_percent_capped(9.99), "999.0 %");
  EXPECT_EQ(format_percent_capped(3.4e61), "over 1000 %");
  EXPECT_EQ(format_percent_capped(std::nan("")), "-");
}
