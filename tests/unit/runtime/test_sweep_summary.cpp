#include <gtest/gtest.h>

#include "runtime/sweep.hpp"

namespace cb {
namespace {

SweepSummary summary(int failed_to_run, int check_failed) {
  SweepSummary s;
  s.records = 10;
  s.failed = failed_to_run;
  s.failed_to_run = failed_to_run;
  s.check_failed = check_failed;
  return s;
}

TEST(SweepSummary, ExitCodeSaysWhetherTheRunFailedOrTheDataWasWrong) {
  EXPECT_EQ(summary(0, 0).exit_code(), 0);
  EXPECT_EQ(summary(0, 2).exit_code(), 1); // wrong data, or a storage read that failed mid-run
  EXPECT_EQ(summary(1, 0).exit_code(), 3); // a case could not run
  EXPECT_EQ(summary(1, 2).exit_code(), 3); // the run failing outranks wrong data
}

TEST(SweepSummary, AFailedReadCountsAsWrongDataNotAFailedRun) {
  SweepSummary s;
  s.failed = 1;       // status failed...
  s.check_failed = 1; // ...because its data never arrived
  EXPECT_EQ(s.exit_code(), 1);
}

} // namespace
} // namespace cb
