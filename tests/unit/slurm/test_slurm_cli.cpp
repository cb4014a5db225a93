#include <gtest/gtest.h>

#include <string>

#include "../cli_runner.hpp"

using cb::testing::contains;
using cb::testing::line_count;
using cb::testing::run_clusterbench;

// The run's flags after -- are checked when the script is made, not once the job has waited in
// the queue and holds its nodes.
TEST(SlurmCli, RunFlagsAreCheckedBeforeTheScriptIsPrinted) {
  const auto bad = run_clusterbench("slurm --nodes 2 --gpus-per-node 8 -- --suite bogus");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_TRUE(contains(bad.err, "--suite")) << bad.err;
  EXPECT_EQ(line_count(bad.err), 1) << bad.err;
  EXPECT_TRUE(bad.out.empty()) << "no script for a run that would be refused";
  const auto typo = run_clusterbench("slurm --nodes 2 --gpus-per-node 8 -- --max-tme 1");
  EXPECT_EQ(typo.exit_code, 2) << typo.err;
  const auto good =
      run_clusterbench("slurm --nodes 2 --gpus-per-node 8 -- --suite collectives --quick");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_TRUE(contains(good.out, "'--suite' 'collectives'")) << good.out;
}

// srun starts one task per GPU: --gpus past the job's ranks, --np and --single-process are
// refused when the script is made.
TEST(SlurmCli, RunFlagsAreCheckedAgainstTheJobsRanks) {
  for (const std::string flags : {"--gpus 32", "--gpus 8,17", "--np 4", "--single-process"}) {
    const auto bad = run_clusterbench("slurm --nodes 2 --gpus-per-node 8 -- " + flags);
    EXPECT_EQ(bad.exit_code, 2) << flags << ": " << bad.err;
    EXPECT_EQ(line_count(bad.err), 1) << flags << ": " << bad.err;
    EXPECT_TRUE(bad.out.empty()) << flags;
  }
  const auto good = run_clusterbench("slurm --nodes 2 --gpus-per-node 8 -- --gpus 8,16");
  EXPECT_EQ(good.exit_code, 0) << good.err;
}
