#include <gtest/gtest.h>

#include "analysis/all_reduce_times.hpp"
#include "analysis_test_data.hpp"

using namespace cb;
using test::all_reduce_record;

TEST(MeasuredAllReduce, LinearBetweenSizesAndAlongTheLastSlopeBeyond) {
  const MeasuredAllReduce m({{4e6, 2.5}, {1e6, 1.0}, {64e3, 0.2}});
  EXPECT_DOUBLE_EQ(m.time(1e6), 1.0);
  EXPECT_DOUBLE_EQ(m.time(2e6), 1.5);        // a third of the way from 1 to 4 MB
  EXPECT_DOUBLE_EQ(m.time(8e6), 4.5);        // 2.5 + 4 MB at 0.5 s per MB
  EXPECT_DOUBLE_EQ(m.time(1e3), 0.2);        // below the smallest: the smallest's time
  EXPECT_DOUBLE_EQ(m.largest_bytes(), 4e6);
  // One size: its per-byte cost.
  EXPECT_DOUBLE_EQ(MeasuredAllReduce({{2e6, 1.0}}).time(4e6), 2.0);
}

TEST(MeasuredAllReduce, TheRecordsAtThatCountOutOfPlaceAndOfTheStepsType) {
  ResultsFile f;
  f.records.push_back(all_reduce_record(1 << 20, 2, 0.010));
  f.records.push_back(all_reduce_record(4 << 20, 2, 0.040));
  f.records.push_back(all_reduce_record(4 << 20, 2, 0.020, true)); // in place: not used
  f.records.push_back(all_reduce_record(4 << 20, 4, 0.090));       // another count
  Record bf16 = all_reduce_record(4 << 20, 2, 0.030);
  bf16.params["dtype"] = "bf16";
  f.records.push_back(bf16);
  const auto m = MeasuredAllReduce::from(f, 2, 1, "float");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->sizes(), 2u);
  EXPECT_NEAR(m->time(4 << 20), 0.040, 1e-12);
  EXPECT_NEAR(m->time(8 << 20), 0.080, 1e-12);
  EXPECT_FALSE(MeasuredAllReduce::from(f, 8, 1, "float"));
  EXPECT_FALSE(MeasuredAllReduce::from(f, 2, 2, "float")); // measured within one node only
}
