// The text exposition writer: escaping, values, names, one family per name, one series per
// identity.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "exporters/prometheus_names.hpp"
#include "exporters/prometheus_text.hpp"

namespace cb {
namespace {

TEST(PrometheusText, LabelValuesEscapeBackslashQuoteAndNewline) {
  EXPECT_EQ(escape_label_value(R"(a\b)"), R"(a\\b)");
  EXPECT_EQ(escape_label_value(R"(say "hi")"), R"(say \"hi\")");
  EXPECT_EQ(escape_label_value("two\nlines"), R"(two\nlines)");
  EXPECT_EQ(escape_label_value("plain-host_01.example"), "plain-host_01.example");
  EXPECT_EQ(escape_label_value("\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9"); // UTF-8 kept
}

TEST(PrometheusText, WhatTheFormatCannotCarryIsReplaced) {
  // A tab, a carriage return, NUL and a byte that is not UTF-8 have no escape in the format.
  EXPECT_EQ(escape_label_value(std::string("a\tb\rc") + '\0' + "d\xFF"), "a\xEF\xBF\xBD"
                                                                         "b\xEF\xBF\xBD"
                                                                         "c\xEF\xBF\xBD"
                                                                         "d\xEF\xBF\xBD");
  EXPECT_EQ(escape_label_value("cut\xE2\x82"), "cut\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(PrometheusText, HelpEscapesBackslashAndNewlineButNotQuotes) {
  EXPECT_EQ(escape_help("a \"b\" c\\d\ne"), R"(a "b" c\\d\ne)");
}

TEST(PrometheusText, ValuesReadBackExactly) {
  EXPECT_EQ(format_sample_value(0), "0");
  EXPECT_EQ(format_sample_value(1), "1");
  EXPECT_EQ(format_sample_value(-2.5), "-2.5");
  EXPECT_EQ(format_sample_value(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(format_sample_value(INFINITY), "+Inf");
  EXPECT_EQ(format_sample_value(-INFINITY), "-Inf");
  for (const double v : {0.1, 412.33333333333331, 1e-9, 6.02214076e23, 1.0 / 3.0}) {
    EXPECT_EQ(std::stod(format_sample_value(v)), v) << format_sample_value(v);
  }
}

TEST(PrometheusText, NamesFollowTheFormat) {
  EXPECT_TRUE(valid_metric_name("clusterbench_gpu_bandwidth_gbs"));
  EXPECT_TRUE(valid_metric_name("a:b"));
  EXPECT_FALSE(valid_metric_name(""));
  EXPECT_FALSE(valid_metric_name("1abc"));
  EXPECT_FALSE(valid_metric_name("a-b"));
  EXPECT_TRUE(valid_label_name("Hostname"));
  EXPECT_TRUE(valid_label_name("UUID"));
  EXPECT_FALSE(valid_label_name("a:b"));
  EXPECT_FALSE(valid_label_name("__name__"));
  EXPECT_FALSE(valid_label_name("0gpu"));
}

TEST(PrometheusText, FamiliesOnceWithHelpAndTypeInFirstAppearanceOrder) {
  PromDocument doc;
  doc.add("b_metric", "B", {{"x", "1"}}, 1);
  doc.add("a_metric", "A", {}, 2);
  doc.add("b_metric", "ignored: the family has its help", {{"x", "2"}}, 3);
  EXPECT_EQ(doc.text("qualify run.json"), "# clusterbench qualify run.json\n"
                                          "# HELP b_metric B\n"
                                          "# TYPE b_metric gauge\n"
                                          "b_metric{x=\"1\"} 1\n"
                                          "b_metric{x=\"2\"} 3\n"
                                          "# HELP a_metric A\n"
                                          "# TYPE a_metric gauge\n"
                                          "a_metric 2\n");
}

TEST(PrometheusText, EmptyLabelsAreLeftOutAndARepeatedSeriesIsDropped) {
  PromDocument doc;
  doc.add("m", "h", {{"Hostname", "n1"}, {"UUID", ""}}, 1);
  doc.add("m", "h", {{"Hostname", "n1"}}, 2); // the same series as Prometheus reads it
  doc.add("m", "h", {{"Hostname", "n2"}, {"UUID", "GPU-1"}}, 3);
  EXPECT_EQ(doc.dropped(), 1u);
  ASSERT_EQ(doc.families().size(), 1u);
  EXPECT_EQ(doc.families()[0].samples.size(), 2u);
  const std::string text = doc.text("x");
  EXPECT_NE(text.find("m{Hostname=\"n1\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("m{Hostname=\"n2\",UUID=\"GPU-1\"} 3\n"), std::string::npos) << text;
  // The file says what it left out.
  EXPECT_NE(text.find("\n# 1 series left out: the same name and labels as an earlier one\n"),
            std::string::npos)
      << text;
}

TEST(PrometheusText, AHostileValueStaysOnItsLine) {
  PromDocument doc;
  doc.add("m", "help\nwith a newline", {{"Hostname", "evil\"} 1\nother_metric 2\n#"}}, 1);
  const std::string text = doc.text("heading\nsecond line");
  EXPECT_EQ(text, "# clusterbench heading\\nsecond line\n"
                  "# HELP m help\\nwith a newline\n"
                  "# TYPE m gauge\n"
                  "m{Hostname=\"evil\\\"} 1\\nother_metric 2\\n#\"} 1\n");
}

TEST(PrometheusText, OurOwnNamesMustBeValid) {
  PromDocument doc;
  EXPECT_THROW(doc.add("bad-name", "h", {}, 1), std::logic_error);
  EXPECT_THROW(doc.add("m", "h", {{"bad label", "v"}}, 1), std::logic_error);
  EXPECT_THROW(doc.add("m", "h", {{"a", "1"}, {"a", "2"}}, 1), std::logic_error);
}

TEST(PrometheusNames, MetricsBecomeNamesWithTheirUnit) {
  const auto check = [](const char* metric, const char* suffix, double scale) {
    const PromMetricName n = prometheus_metric_name(metric);
    EXPECT_EQ(n.suffix, suffix) << metric;
    EXPECT_DOUBLE_EQ(n.scale, scale) << metric;
  };
  check("busbw_gbps", "bus_bandwidth_gbs", 1);
  check("algbw_gbps", "algorithm_bandwidth_gbs", 1);
  check("gbps", "bandwidth_gbs", 1);
  check("min_pair_gbps", "min_pair_gbs", 1);
  check("tflops", "tflops", 1);
  check("latency_us", "latency_seconds", 1e-6);
  check("time_us", "time_seconds", 1e-6);
  check("step_ms", "step_seconds", 1e-3);
  check("wait_ns", "wait_seconds", 1e-9);
  check("median_s", "median_seconds", 1);
  check("tokens_per_s", "tokens_per_second", 1);
  check("fraction_of_peak", "fraction_of_peak", 1);
  check("odd-name.x", "odd_name_x", 1);
}

} // namespace
} // namespace cb
