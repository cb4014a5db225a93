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
    const MetricUnitSuffix* suffix = unit_suffix_of(m.name);
    if (m.unit.empty()) {
      // A fraction or a count: no suffix that would give it a unit, and a name to print instead.
      EXPECT_EQ(suffix, nullptr) << m.name << " has a unit suffix but no unit";
      EXPECT_FALSE(m.short_name.empty()) << m.name;
      EXPECT_FALSE(m.label.empty()) << m.name;
      EXPECT_FALSE(m.headline) << m.name;
      continue;
    }
    EXPECT_FALSE(m.symbol.empty()) << m.name;
    ASSERT_NE(suffix, nullptr) << m.name << " ends with no unit suffix";
    EXPECT_EQ(suffix->unit, m.unit) << m.name;
  }
}

TEST(MetricTable, SuitesAndPerRankPlaces) {
  EXPECT_EQ(find_metric("busbw_gbps")->suites, std::vector<std::string>{"collectives"});
  EXPECT_EQ(find_metric("gbps")->suites, (std::vector<std::string>{"compute", "links", "storage"}));
  EXPECT_EQ(find_metric("pairs")->suites, std::vector<std::string>{"links"});
  // The per-rank places are 1, 2, ... without a gap or a tie, and name throughputs only.
  std::vector<std::string> names;
  int place = 0;
  for (const MetricDefinition* m : per_rank_metric_definitions()) {
    EXPECT_EQ(m->per_rank, ++place) << m->name;
    EXPECT_TRUE(m->higher_is_better) << m->name;
    names.push_back(m->name);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"gbps", "busbw_gbps", "algbw_gbps", "tflops", "gflops"}));
  EXPECT_EQ(find_metric("latency_us")->per_rank, 0);
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
