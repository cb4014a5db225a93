// `plan` and `run --budget` through the real binary: the figure a user checks, and bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

using namespace cb::testing;

TEST(PlanCli, Cluster128x8FitsFifteenMinutesWith127Rounds) {
  const CliResult r = run_clusterbench("plan --nodes 128 --gpus-per-node 8 --backend cuda --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_LE(j.at("total_s").get<double>(), 900);
  EXPECT_EQ(j.at("pair_rounds").get<int>(), 127);
  EXPECT_GT(j.at("phases").size(), 50u);
}

TEST(PlanCli, TextNamesTheTotal) {
  const CliResult r = run_clusterbench("plan --nodes 2 --gpus-per-node 4 --backend host --quick");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "# total: ")) << r.out;
  EXPECT_TRUE(contains(r.out, "pair rounds: 1 between nodes")) << r.out;
}

TEST(PlanCli, BadInputIsOneLineNamingTheFlag) {
  const std::pair<const char*, const char*> cases[] = {
      {"plan --nodes 0", "--nodes"},
      {"plan --gpus-per-node 0", "--gpus-per-node"},
      {"plan --nodes -3", "--nodes"},
      // A cluster the planner would take minutes or all memory to lay out.
      {"plan --nodes 1000000 --gpus-per-node 8", "--nodes"},
      {"plan --nodes 8 --gpus-per-node 1000000", "--gpus-per-node"},
      {"plan --nodes 16384 --gpus-per-node 256 --backend cuda", "--nodes x --gpus-per-node"},
      {"plan --budget 0m", "--budget"},
      {"plan --budget -5m", "--budget"},
      {"plan --budget 15", "--budget"},
      {"plan --budget 15fortnights", "--budget"},
      {"plan --nodes 16 --gpus-per-node 8 --backend cuda --budget 5s", "--budget"},
      {"run --budget 0s --single-process --np 1", "--budget"},
      {"run --budget 1s --single-process --np 1 --quick --suite compute", "--budget"},
      // A GPU spec's figures do not time a host run: taken and ignored, the plan would mislead.
      {"plan --nodes 2 --backend host --plan-spec h200-sxm", "--plan-spec"},
  };
  for (const auto& [args, flag] : cases) {
    const CliResult r = run_clusterbench(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out << r.err;
    EXPECT_EQ(line_count(r.err), 1) << args << ": " << r.err;
    EXPECT_TRUE(contains(r.err, flag)) << args << ": " << r.err;
  }
}

TEST(PlanCli, RefusalSaysTheSmallestFeasibleBudget) {
  const CliResult r =
      run_clusterbench("plan --nodes 16 --gpus-per-node 8 --backend cuda --budget 5s");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "smallest feasible")) << r.err;
}
