#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../cli_runner.hpp"

using cb::testing::contains;
using cb::testing::line_count;
using cb::testing::run_clusterbench;

namespace {
const std::string kGood = "k8s --nodes 2 --gpus-per-node 8 --image clusterbench:1 ";
}

// Bad input is one line and exit 2, and no manifest: nothing reaches kubectl.
TEST(K8sCli, BadInputIsOneLineAndExitTwo) {
  for (const std::string& args :
       std::vector<std::string>{"k8s --nodes 0 --gpus-per-node 8 --image cb",
                                "k8s --nodes 2 --gpus-per-node -1 --image cb",
                                "k8s --nodes 2 --gpus-per-node 8",
                                "k8s --nodes 2 --gpus-per-node 8 --image 'Bad Image'",
                                kGood + "--name Bad_Name",
                                kGood + "--name " + std::string(60, 'a'),
                                kGood + "--shm 16GB",
                                kGood + "--rdma-resource rdma/ib",
                                kGood + "--rdma-resource rdma/ib=x",
                                kGood + "--deadline 5",
                                kGood + "-- --suite bogus",
                                kGood + "-- --max-tme 1",
                                kGood + "-- --out x.json",
                                kGood + "--bogus",
                                kGood + "-- --gpus 32",
                                kGood + "-- --gpus 8,17",
                                kGood + "-- --np 4",
                                kGood + "-- --single-process",
                                kGood + "--deadline 1e300s",
                                kGood + "--deadline 1000h",
                                kGood + "--deadline 0.5s"}) {
    const auto result = run_clusterbench(args);
    EXPECT_EQ(result.exit_code, 2) << args << ": " << result.err;
    EXPECT_EQ(line_count(result.err), 1) << args << ": " << result.err;
    EXPECT_TRUE(result.out.empty()) << args;
  }
  // Past any integer: refused by its range, as given, not printed as a wrapped number.
  const auto huge = run_clusterbench(kGood + "--deadline 1e300s");
  EXPECT_TRUE(contains(huge.err, "--deadline must be from 1 s to 30 days, got 1e300s")) << huge.err;
}

TEST(K8sCli, PrintsTheManifestWithTheCallersTransportVariables) {
  const auto result = run_clusterbench(kGood + "--queue q1 -- --suite collectives --quick",
                                       "env NCCL_IB_HCA=mlx5_0 OMPI_MCA_orte_default_hostfile=/x");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "kind: \"MPIJob\"")) << result.out;
  EXPECT_TRUE(contains(result.out, "-np 16 --map-by ppr:8:node")) << result.out;
  EXPECT_TRUE(contains(result.out, "-x NCCL_IB_HCA")) << result.out;
  EXPECT_FALSE(contains(result.out, "orte_default_hostfile")) << result.out;
  EXPECT_TRUE(contains(result.out, "'--suite' 'collectives' '--quick'")) << result.out;
}
