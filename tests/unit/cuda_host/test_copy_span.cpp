#include <gtest/gtest.h>

#include <algorithm>

#include "cuda/copy_span.hpp"

namespace cb::cuda {
namespace {

// The timed copies end when the host saw the stop event and last what the events say; the warm-up
// copy between the release and the start event is not part of them.
TEST(CopySpan, TheTimedWindowEndsAtCompletionAndLastsTheEventTime) {
  EXPECT_EQ(timed_window(100.0, 100.5, 0.25), (CopyWindow{100.25, 100.5}));
  // Events longer than the host saw (clock granularity): never before the release.
  EXPECT_EQ(timed_window(100.0, 100.1, 0.5), (CopyWindow{100.0, 100.1}));
}

// Two ranks each copy 1 GB in 10 ms, the second starting 5 ms late: per-GPU rate x ranks says
// 200 GB/s, the node moved 2 GB in 15 ms.
TEST(CopySpan, TheAggregateIsTheNodesBytesOverItsSpan) {
  const std::vector<CopyWindow> ranks{{1.000, 1.010}, {1.005, 1.015}};
  const double span =
      std::max(ranks[0].end_s, ranks[1].end_s) - std::min(ranks[0].start_s, ranks[1].start_s);
  EXPECT_NEAR(span_gbps(2, 1000000000, 1, span), 2.0 / 0.015, 1e-6);
  EXPECT_NEAR(span_gbps(2, 1000000000, 1, 0.010), 200.0, 1e-9); // exactly together
  // Several releases: their bytes over the sum of their spans.
  EXPECT_NEAR(span_gbps(8, 256u << 20, 64, 2 * 0.0125), 8.0 * (256u << 20) * 64 / 0.025 / 1e9,
              1e-6);
}

TEST(CopySpan, NothingMeasuredIsZeroNotInfinite) {
  EXPECT_EQ(span_gbps(2, 1000, 1, 0), 0);
  EXPECT_EQ(span_gbps(2, 1000, 1, -1), 0);
  EXPECT_EQ(span_gbps(0, 1000, 1, 1), 0);
  EXPECT_EQ(span_gbps(2, 1000, 0, 1), 0);
}

} // namespace
} // namespace cb::cuda
