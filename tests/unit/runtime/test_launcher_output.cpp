#include <gtest/gtest.h>

#include "runtime/launcher_output.hpp"

namespace cb {
namespace {

const std::string kRule(74, '-');

TEST(LauncherOutput, ShowsTheRanksLinesAtOnceEvenWhenSplitAcrossReads) {
  LauncherOutput out;
  EXPECT_TRUE(out.feed("progress: 1/4 coll").empty());
  const auto shown = out.feed("ectives\nclusterbench run: rank 1: boom\nstray\n");
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown[0], "progress: 1/4 collectives");
  EXPECT_EQ(shown[1], "clusterbench run: rank 1: boom");
  EXPECT_EQ(out.held(), std::vector<std::string>{"stray"});
}

TEST(LauncherOutput, HoldsOpenMpiBannersAndNamesTheCauseOfAFailedStart) {
  LauncherOutput out;
  const auto shown = out.feed("ssh: Could not resolve hostname node7: Name or service not known\n" +
                              kRule + "\nORTE was unable to reliably start one or more daemons.\n" +
                              "clusterbench-looking text inside a banner\n" + kRule + "\n");
  EXPECT_TRUE(shown.empty());
  EXPECT_EQ(out.held().size(), 5u);
  EXPECT_EQ(out.cause(), "ssh: Could not resolve hostname node7: Name or service not known");
  EXPECT_EQ(
      out.held_outside_banners(),
      std::vector<std::string>{"ssh: Could not resolve hostname node7: Name or service not known"});
}

TEST(LauncherOutput, WithOnlyABannerTheCauseIsItsFirstLine) {
  LauncherOutput out;
  out.feed(kRule + "\nmpirun was unable to launch the specified application\n\nmore\n" + kRule +
           "\n");
  EXPECT_EQ(out.cause(), "mpirun was unable to launch the specified application");
  EXPECT_TRUE(out.held_outside_banners().empty());
}

TEST(LauncherOutput, TheLastLineWithoutANewlineIsSortedAtTheEnd) {
  LauncherOutput out;
  EXPECT_TRUE(out.feed("clusterbench run: done").empty());
  EXPECT_EQ(out.finish(), std::vector<std::string>{"clusterbench run: done"});
  LauncherOutput quiet;
  EXPECT_TRUE(quiet.finish().empty());
  EXPECT_EQ(quiet.cause(), "");
}

TEST(LauncherOutput, TheSameLineFromManyRanksIsShownOnceAndCounted) {
  LauncherOutput sorter;
  std::string text;
  for (int rank = 0; rank < 8192; ++rank)
    text += "clusterbench run: rank " + std::to_string(rank) +
            ": no progress for 600 s in collectives/all_reduce; aborting the job (--timeout).\n";
  text += "clusterbench run: rank 7: NCCL error: remote process exited\n";
  text += "clusterbench run: rank 12: NCCL error: remote process exited\n";
  const auto shown = sorter.feed(text);
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown[0].rfind("clusterbench run: rank 0: no progress", 0), 0u);
  EXPECT_EQ(shown[1], "clusterbench run: rank 7: NCCL error: remote process exited");
  const auto repeated = sorter.repeated();
  ASSERT_EQ(repeated.size(), 2u);
  EXPECT_EQ(repeated[0], "clusterbench run: rank 0's line above was said by 8191 more ranks too "
                         "(1, 2, 3, 4, 5, 6, 7, 8, ...)");
  EXPECT_EQ(repeated[1], "clusterbench run: rank 7's line above was said by 1 more rank too (12)");
  // Lines that differ in more than the rank are each shown; other lines are never folded.
  LauncherOutput other;
  EXPECT_EQ(other
                .feed("clusterbench run: rank 1: a\nclusterbench run: rank 2: b\nprogress: 1/2\n"
                      "progress: 1/2\n")
                .size(),
            4u);
  EXPECT_TRUE(other.repeated().empty());
}

TEST(LauncherOutput, RankZerosJobDoneLineIsNotedNotShown) {
  LauncherOutput out;
  EXPECT_FALSE(out.job_done());
  const auto shown = out.feed(std::string("progress: 7/7\n") + kJobDoneLine + "\n");
  EXPECT_EQ(shown, std::vector<std::string>{"progress: 7/7"});
  EXPECT_TRUE(out.job_done());
  EXPECT_TRUE(out.held().empty());
  // Inside an Open MPI banner the same words are its text, not our line.
  LauncherOutput banner;
  banner.feed(std::string(40, '-') + "\n" + kJobDoneLine + "\n");
  EXPECT_FALSE(banner.job_done());
}

} // namespace
} // namespace cb
