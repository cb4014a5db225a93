#include <gtest/gtest.h>

#include "cuda/async_wait.hpp"

namespace cb::cuda {
namespace {

using namespace std::chrono_literals;

TEST(AsyncWait, ReturnsDoneWhenTheWorkFinishes) {
  int polls = 0;
  EXPECT_EQ(wait_for([&] { return ++polls >= 3; }, [] { return false; }, 1s), WaitOutcome::done);
  EXPECT_EQ(polls, 3);
}

TEST(AsyncWait, AnErrorWinsOverCompletion) {
  EXPECT_EQ(wait_for([] { return true; }, [] { return true; }, 1s), WaitOutcome::failed);
}

TEST(AsyncWait, ReportsAnErrorThatAppearsWhileWaiting) {
  int polls = 0;
  EXPECT_EQ(wait_for([] { return false; }, [&] { return ++polls > 5; }, 1s), WaitOutcome::failed);
}

TEST(AsyncWait, GivesUpAtTheTimeout) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(wait_for([] { return false; }, [] { return false; }, 50ms, 1000us),
            WaitOutcome::timed_out);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, 50ms);
  EXPECT_LT(waited, 2s);
}

} // namespace
} // namespace cb::cuda
