#include "report/report_format.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace cb::report {
namespace {

TEST(ReportFormat, FiguresKeepSignificantDigits) {
  EXPECT_EQ(format_figure(457.942272), "457.9");
  EXPECT_EQ(format_figure(5.846515), "5.847");
  EXPECT_EQ(format_figure(23327.789697), "23328");
  EXPECT_EQ(format_figure(0.0854501, 3), "0.0855");
  EXPECT_EQ(format_figure(0), "0");
  EXPECT_EQ(format_figure(4.518e-4, 3), "4.52e-04");
  EXPECT_EQ(format_figure(2.5e8, 3), "2.50e+08");
  EXPECT_EQ(format_figure(-12.345, 3), "-12.3");
  EXPECT_EQ(format_figure(NAN), "-");
  EXPECT_EQ(format_figure(INFINITY), "-");
}

TEST(ReportFormat, Percentages) {
  EXPECT_EQ(format_percent(0.8613), "86.1 %");
  EXPECT_EQ(format_percent(1.0, 0), "100 %");
  EXPECT_EQ(format_percent(std::nullopt), "-");
  EXPECT_EQ(format_percent(NAN), "-");
  EXPECT_EQ(format_signed_percent(1 / 0.7 - 1), "+42.9 %");
  EXPECT_EQ(format_signed_percent(-0.01), "-1.0 %");
  // Under 1 % two significant digits say how small.
  EXPECT_EQ(format_percent(0.0000734), "0.0073 %");
  EXPECT_EQ(format_percent(0.0), "0.0 %");
}

TEST(ReportFormat, CostOverheadAsPercentUpToDoublingThenAsMultiple) {
  EXPECT_EQ(format_cost_overhead(1 / 0.7 - 1), "+42.9 %");
  EXPECT_EQ(format_cost_overhead(1.0), "+100.0 %");
  EXPECT_EQ(format_cost_overhead(1 / 0.14 - 1), "7.14×");
  EXPECT_EQ(format_cost_overhead(-0.2), "-20.0 %");
  EXPECT_EQ(format_cost_overhead(NAN), "-");
}

TEST(ReportFormat, MetricLabelsCarryUnits) {
  EXPECT_EQ(metric_label("busbw_gbps"), "busbw (GB/s)");
  EXPECT_EQ(metric_label("gbps"), "GB/s");
  EXPECT_EQ(metric_label("tflops"), "TFLOP/s");
  EXPECT_EQ(metric_label("latency_us"), "latency (us)");
  EXPECT_EQ(metric_label("node_link_gbps"), "node link (GB/s)");
  // No unit: a fraction or a count reads by its short name alone.
  EXPECT_EQ(metric_label("fraction_of_peak"), "fraction of peak");
  EXPECT_EQ(metric_label("pairs"), "pairs");
  EXPECT_EQ(metric_label("other"), "other");
}

} // namespace
} // namespace cb::report
