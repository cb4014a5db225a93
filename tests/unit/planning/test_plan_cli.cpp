// `plan` and `run --budget` through the real binary: the figure a user checks, and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

using namespace cb::testing;

TEST(PlanCli, Cluster128x8FitsFifteenMinutesWith127Rounds) {
  const CliResult r = run_clusterbench(
      "plan --nodes 128 --gpus-per-node 8 --backend cuda --pairs rounds --json");
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

// plan takes --pairs and --topology as run does: the screen's rounds printed, a topology's
// leaves its groups, a bad topology refused naming the file.
TEST(PlanCli, PricesTheScreenWithATopology) {
  const std::string topo = ::testing::TempDir() + "cb-plan-topo.conf";
  {
    std::ofstream out(topo);
    out << "SwitchName=leaf1 Nodes=n[0001-0032]\nSwitchName=leaf2 Nodes=n[0033-0064]\n";
  }
  CliResult r = run_clusterbench("plan --nodes 64 --gpus-per-node 8 --backend cuda --pairs screen "
                                 "--topology " + topo + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("pairs"), "screen");
  EXPECT_EQ(j.at("screen").at("groups"), "topology");
  EXPECT_GT(j.at("screen").at("rounds").get<int>(), 0);
  r = run_clusterbench("plan --nodes 1024 --gpus-per-node 8 --backend cuda");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "# pair rounds: the screen between nodes, ")) << r.out;
  r = run_clusterbench("plan --nodes 65 --gpus-per-node 8 --backend cuda --topology " + topo);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, topo)) << r.err;
  r = run_clusterbench("plan --nodes 64 --pairs ring");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--pairs")) << r.err;
}

// Every case the binary registers is planned by its family's estimate, on either backend: a case
// planned at the default would print a WARNING line and list itself in default_estimates.
TEST(PlanCli, EveryCaseOfTheBinaryHasItsFamilysEstimate) {
  for (const char* backend : {"host", "cuda"}) {
    const std::string flags = std::string("plan --nodes 2 --gpus-per-node 4 --backend ") + backend;
    const CliResult text = run_clusterbench(flags);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_FALSE(contains(text.out, "WARNING")) << text.out;
    const CliResult json = run_clusterbench(flags + " --json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_FALSE(j.contains("default_estimates")) << j.dump();
    EXPECT_GT(j.at("phases").size(), 20u);
  }
}

std::string planning_fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/planning/" + name;
}

TEST(PlanCli, FromAnEarlierRunTakesItsLinkAndSaysSo) {
  const std::string plan = "plan --backend host --nodes 3 --gpus-per-node 1 --quick --suite links ";
  CliResult r = run_clusterbench(plan + "--from " + planning_fixture("links_3nodes.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "# link between nodes: 0.0361 GB/s per rank, measured in ")) << r.out;
  EXPECT_TRUE(contains(r.out, "pair_bw median over 6 node pairs (8M, 3 nodes)")) << r.out;
  r = run_clusterbench(plan + "--json --plan-from " + planning_fixture("links_3nodes.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto link = nlohmann::json::parse(r.out).at("model").at("link");
  EXPECT_DOUBLE_EQ(link.at("bytes_per_s").get<double>(), 36.1e6);
  EXPECT_TRUE(contains(link.at("source").get<std::string>(), "measured in ")) << link;
  // A slower link plans a longer run.
  const double measured_total = nlohmann::json::parse(r.out).at("total_s").get<double>();
  r = run_clusterbench(plan + "--json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(measured_total, 2 * nlohmann::json::parse(r.out).at("total_s").get<double>());
  EXPECT_TRUE(contains(nlohmann::json::parse(r.out)["model"]["link"]["source"].get<std::string>(),
                       "assumed: "));
  r = run_clusterbench(plan + "--plan-link 100mbit --from " + planning_fixture("links_3nodes.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "# link between nodes: 0.0125 GB/s per rank, --plan-link 100mbit "
                              "(given; wins over 0.0361 GB/s per rank measured in "))
      << r.out;
}

TEST(PlanCli, FromAFileWithoutALinkAcrossNodesIsOneLineNamingIt) {
  const std::pair<std::string, std::string> cases[] = {
      {"plan --from " + planning_fixture("intra_only.json"),
       "intra_only.json: no links/pair_bw (direction=uni) or links/ring_bw record measured across "
       "nodes"},
      // Our own results loader checks the file: collectives only, across nodes.
      {"plan --from " + std::string(CB_SOURCE_DIR) + "/tests/fixtures/plots/host_cluster.json",
       "host_cluster.json: no links/pair_bw"},
      {"plan --backend cuda --from " + planning_fixture("links_3nodes.json"),
       "run.backend is host"},
      {"plan --from " + planning_fixture("missing.json"), "missing.json"},
      {"plan --from " + std::string(CB_SOURCE_DIR) + "/README.md", "README.md"},
      {"plan --from ''", "--from"},
      {"plan --from a.json --plan-from b.json", "--from"},
      {"run --single-process --np 1 --quick --suite links --out /tmp/cb-never.json --plan-from " +
           planning_fixture("intra_only.json"),
       "intra_only.json: no links/pair_bw"},
  };
  for (const auto& [args, says] : cases) {
    const CliResult r = run_clusterbench(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out << r.err;
    EXPECT_EQ(line_count(r.err), 1) << args << ": " << r.err;
    EXPECT_TRUE(contains(r.err, says)) << args << ": " << r.err;
  }
}

TEST(PlanCli, RunPrintsAndKeepsTheSameLinkLineUnderItsPlan) {
  const std::string out = (std::filesystem::temp_directory_path() /
                           ("cb-planlink-" + std::to_string(::getpid()) + ".json"))
                              .string();
  std::filesystem::remove(out);
  const CliResult r = run_clusterbench(
      "run --backend host --single-process --np 2 --quick --suite links --cases ring_bw --out " +
      out + " --plan-from " + planning_fixture("links_3nodes.json"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "# link between nodes: 0.0361 GB/s per rank, measured in ")) << r.out;
  const auto kept = nlohmann::json::parse(read_file(out));
  EXPECT_TRUE(contains(kept.at("run").at("plan").at("model").at("link").at("source"),
                       "pair_bw median over 6 node pairs"))
      << kept.at("run").at("plan").at("model");
  std::filesystem::remove(out);
}
