#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "results/metric_table.hpp"

using namespace cb;

// The build embeds the file as it is in the source tree: the tools and the plots read one table.
TEST(MetricTable, EmbedsTheSourceFile) {
  std::ifstream in(CB_SOURCE_DIR "/results/metrics.json");
  ASSERT_TRUE(in) << "results/metrics.json not found";
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(metric_table_json(), text.str());
}

TEST(MetricTable, NamesAreUniqueAndUnitsAgreeWithTheirSuffix) {
  std::set<std::string> names;
  ASSERT_FALSE(metric_table().empty());
  for (const auto& m : metric_table()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name << " is listed twice";
    EXPECT_FALSE(m.unit.empty()) << m.name;
    EXPECT_FALSE(m.symbol.empty()) << m.name;
    const MetricUnitSuffix* suffix = unit_suffix_of(m.name);
    ASSERT_NE(suffix, nullptr) << m.name << " ends with no unit suffix";
    EXPECT_EQ(suffix->unit, m.unit) << m.name;
  }
}

TEST(MetricTable, HeadlineMetricsInOrderOfPreference) {
  std::vector<std::string> names;
  for (const MetricDefinition* m : headline_metric_definitions())
    names.push_back(m->name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"busbw_gbps", "gbps", "tflops", "gflops", "latency_us"}));
  EXPECT_TRUE(find_metric("busbw_gbps")->higher_is_better);
  EXPECT_FALSE(find_metric("latency_us")->higher_is_better);
  EXPECT_FALSE(find_metric("time_us")->headline);
  EXPECT_EQ(find_metric("latency_us")->symbol, "µs");
  EXPECT_EQ(find_metric("gbps")->symbol, "GB/s");
  EXPECT_EQ(find_metric("no_such_metric"), nullptr);
}

TEST(MetricTable, UnitSuffixesFirstMatchWins) {
  EXPECT_EQ(unit_suffix_of("first_done_gbps")->unit, "GB/s");
  EXPECT_EQ(unit_suffix_of("median_s")->unit, "s");
  EXPECT_EQ(unit_suffix_of("iops")->unit, "IO/s");
  EXPECT_EQ(unit_suffix_of("fraction_of_peak"), nullptr);
}
