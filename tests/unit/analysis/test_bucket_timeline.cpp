#include <gtest/gtest.h>

#include "analysis/bucket_timeline.hpp"
#include "analysis/prediction.hpp"

using namespace cb;

namespace {

constexpr double kTol = 1e-12;

// Three buckets ready at 1, 3 and 5 of a backward of 6 (arbitrary units).
const std::vector<double> kReady = {1, 3, 5};

} // namespace

TEST(BucketTimeline, AFastLinkHidesEveryBucket) {
  // Each all-reduce ends before the next bucket is ready: 1-2, 3-4, 5-6.
  const auto t = bucket_timeline(kReady, {1, 1, 1}, 6, true);
  EXPECT_EQ(t.start_s, (std::vector<double>{1, 3, 5}));
  EXPECT_EQ(t.end_s, (std::vector<double>{2, 4, 6}));
  EXPECT_NEAR(t.exposed_s, 0, kTol);
}

TEST(BucketTimeline, ASlowLinkQueuesTheBucketsBehindEachOther) {
  // 1-5, then 5-9 (ready at 3, the link busy until 5), then 9-13: 7 after backward, where "only
  // the last bucket is exposed" would say 4.
  const auto t = bucket_timeline(kReady, {4, 4, 4}, 6, true);
  EXPECT_EQ(t.start_s, (std::vector<double>{1, 5, 9}));
  EXPECT_EQ(t.end_s, (std::vector<double>{5, 9, 13}));
  EXPECT_NEAR(t.exposed_s, 7, kTol);
}

TEST(BucketTimeline, ABucketStartsAtTheLaterOfReadyAndThePreviousDone) {
  // 1-3.5; ready at 3 but the link is busy: 3.5-4; ready at 5: 5-7. One unit after backward.
  const auto t = bucket_timeline(kReady, {2.5, 0.5, 2}, 6, true);
  EXPECT_EQ(t.start_s, (std::vector<double>{1, 3.5, 5}));
  EXPECT_EQ(t.end_s, (std::vector<double>{3.5, 4, 7}));
  EXPECT_NEAR(t.exposed_s, 1, kTol);
}

TEST(BucketTimeline, OverlapOffStartsAfterBackwardAndExposesTheSum) {
  const auto t = bucket_timeline(kReady, {1, 2, 3}, 6, false);
  EXPECT_EQ(t.start_s, (std::vector<double>{6, 7, 9}));
  EXPECT_NEAR(t.exposed_s, 6, kTol);
}

TEST(BucketTimeline, NoBucketsNothingExposedAndReadyIsAtMostBackward) {
  EXPECT_EQ(bucket_timeline({}, {}, 6, true).exposed_s, 0);
  // A ready time past the end of backward (rounding in a measured share) counts as its end.
  const auto t = bucket_timeline({7}, {1}, 6, true);
  EXPECT_NEAR(t.start_s[0], 6, kTol);
  EXPECT_NEAR(t.exposed_s, 1, kTol);
}

TEST(BucketTimeline, ExposedAllReduceFromAScheduleOfShares) {
  // Shares of a backward of 60 ms: ready at 15 and 45 ms; 2 MB at 1 ms per 0.1 MB = 20 ms each:
  // 15-35, 45-65: 5 ms exposed.
  BucketSchedule s;
  s.bytes = {2e6, 2e6};
  s.ready_share = {0.25, 0.75};
  const double exposed = exposed_all_reduce(s, 0.06, [](double bytes) { return bytes * 1e-8; });
  EXPECT_NEAR(exposed, 0.005, 1e-12);
  s.overlap = false; // 60-80, 80-100
  EXPECT_NEAR(exposed_all_reduce(s, 0.06, [](double bytes) { return bytes * 1e-8; }), 0.04,
              1e-12);
}
