#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../cli_runner.hpp"

using cb::testing::contains;
using cb::testing::line_count;
using cb::testing::run_clusterbench;

namespace {

std::string scenario(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/scenarios/" + name;
}

std::string topology(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/topology/" + name;
}

} // namespace

// The documented example: the three planted faults named, in JSON with the scenario's indices.
TEST(SimulateCli, TheDocumentedExampleNamesItsThreeFaults) {
  const auto r = run_clusterbench("simulate " + scenario("good_request_example.json") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  EXPECT_EQ(out["pairs"], "screen");
  EXPECT_GT(out["tests"].get<long long>(), 0);
  EXPECT_LT(out["rounds"].get<long long>(), 40);
  EXPECT_GT(out["seconds"].get<double>(), 0);
  std::set<std::string> named;
  for (const auto& c : out["culprits"])
    named.insert(c["kind"].get<std::string>() + " " + c.value("host", nlohmann::json(-1)).dump() +
                 " " + c.value("gpu", nlohmann::json(-1)).dump() + " " +
                 c.value("leaf", nlohmann::json(-1)).dump());
  EXPECT_EQ(named, (std::set<std::string>{"node 412 -1 -1", "rail 7 3 -1", "uplink -1 -1 5"}))
      << r.out;
  const auto text = run_clusterbench("simulate " + scenario("good_request_example.json"));
  EXPECT_TRUE(contains(text.out, "culprits: 3")) << text.out;
  EXPECT_TRUE(contains(text.out, "node    node0412")) << text.out;
  EXPECT_TRUE(contains(text.out, "uplink  leaf5 (node0160..node0191)")) << text.out;
}

// A node slow in what it sends only (the emulated cluster's shaped egress): named with its
// direction, in JSON and in the text.
TEST(SimulateCli, AOneWayNodeIsNamedWithItsDirection) {
  const auto r = run_clusterbench("simulate " + scenario("good_one_way_node.json") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  ASSERT_EQ(out["culprits"].size(), 1u) << r.out;
  EXPECT_EQ(out["culprits"][0]["kind"], "node");
  EXPECT_EQ(out["culprits"][0]["host"], 2);
  EXPECT_EQ(out["culprits"][0]["direction"], "egress");
  const auto text = run_clusterbench("simulate " + scenario("good_one_way_node.json"));
  EXPECT_TRUE(contains(text.out, "node    node0002 (egress only)")) << text.out;
}

// Eight nodes on two switches, the small one's uplink slow and a slow node behind it, with a
// Slurm topology file: the switch is named by the file's name, and the node.
TEST(SimulateCli, ATopologyFileNamesTheSwitch) {
  const auto r = run_clusterbench("simulate " + scenario("good_small_two_leaves.json") +
                                  " --json --topology " + topology("two_leaves.conf"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  ASSERT_EQ(out["culprits"].size(), 2u) << r.out;
  EXPECT_EQ(out["culprits"][0]["kind"], "uplink");
  EXPECT_EQ(out["culprits"][0]["switch"], "leaf2");
  EXPECT_EQ(out["culprits"][0]["leaf"], 1);
  EXPECT_EQ(out["culprits"][1]["kind"], "node");
  EXPECT_EQ(out["culprits"][1]["host"], 6);
  const auto rounds =
      run_clusterbench("simulate " + scenario("good_small_two_leaves.json") +
                       " --json --pairs rounds --topology " + topology("two_leaves.conf"));
  ASSERT_EQ(rounds.exit_code, 0) << rounds.err;
  EXPECT_EQ(nlohmann::json::parse(rounds.out)["culprits"].size(), 2u) << rounds.out;
  // One pair at a time, a flow fits in the small leaf's uplinks at 0.4 of its three rails: a
  // sequential test cannot see the uplink, only the node.
  const auto one_pair =
      run_clusterbench("simulate " + scenario("good_small_two_leaves.json") +
                       " --json --pairs sequential --topology " + topology("two_leaves.conf"));
  ASSERT_EQ(one_pair.exit_code, 0) << one_pair.err;
  const auto culprits = nlohmann::json::parse(one_pair.out)["culprits"];
  ASSERT_EQ(culprits.size(), 1u) << one_pair.out;
  EXPECT_EQ(culprits[0]["host"], 6);
}

TEST(SimulateCli, BadInputIsOneLineAndExitTwo) {
  struct Case {
    std::string arguments, expected;
  };
  const std::vector<Case> cases = {
      {"simulate " + scenario("bad_semantic_host_out_of_range.json"), "faults[0].host"},
      {"simulate " + scenario("bad_noise_negative.json"), "noise"},
      {"simulate /nonexistent/s.json", "/nonexistent/s.json"},
      {"simulate " + scenario("good_minimal.json") + " --pairs all", "--pairs"},
      {"simulate " + scenario("good_small_two_leaves.json") + " --topology " +
           topology("missing_host.conf"),
       "missing_host.conf: job host node0007 is under no leaf switch"},
      {"simulate " + scenario("good_small_two_leaves.json") + " --topology " +
           topology("cycle.conf"),
       "cycle.conf line 3: switch cycle"},
      {"simulate " + scenario("good_minimal.json") + " --topology x --no-topology",
       "--no-topology"},
      // A switch name in Latin-1 once reached the JSON writer and ended in exit 3.
      {"simulate " + scenario("good_small_two_leaves.json") + " --json --topology " +
           topology("not_ascii.conf"),
       "not_ascii.conf line 1: SwitchName='leaf\\xff1': a name is printable ASCII"},
      // 136 bytes naming four million hosts: refused at the first list, not after expanding.
      {"simulate " + scenario("good_small_two_leaves.json") + " --topology " +
           topology("huge_ranges.conf"),
       "huge_ranges.conf line 1: Nodes='h1_[0-999999]': too many hosts (more than 65536)"},
      {"simulate " + scenario("good_small_two_leaves.json") + " --topology " +
           topology("spine_cycle.json"),
       "spine_cycle.json: B is the spine above leaf A and a leaf too"},
      {"simulate", "SCENARIO.json"},
  };
  for (const auto& c : cases) {
    const auto r = run_clusterbench(c.arguments);
    EXPECT_EQ(r.exit_code, 2) << c.arguments << ": " << r.err;
    EXPECT_TRUE(contains(r.err, c.expected)) << c.arguments << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
  }
}

// The header counts the leaves the screen planned on: a topology file's four, not the
// scenario's two; without a topology, the blind groups.
TEST(SimulateCli, TheHeaderCountsTheTopologysLeaves) {
  const auto four = run_clusterbench("simulate " + scenario("good_small_two_leaves.json") +
                                     " --topology " + topology("four_leaves.conf"));
  ASSERT_EQ(four.exit_code, 0) << four.err;
  EXPECT_TRUE(contains(four.out, "simulate: 8 nodes x 1 GPUs, 4 leaves,")) << four.out;
  const auto own = run_clusterbench("simulate " + scenario("good_small_two_leaves.json"));
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_TRUE(contains(own.out, "simulate: 8 nodes x 1 GPUs, 2 leaves,")) << own.out;
  const auto blind =
      run_clusterbench("simulate " + scenario("good_small_two_leaves.json") + " --no-topology");
  ASSERT_EQ(blind.exit_code, 0) << blind.err;
  EXPECT_TRUE(contains(blind.out, "simulate: 8 nodes x 1 GPUs, 3 groups,")) << blind.out;
}

TEST(SimulateCli, RoundsTooLargeToSimulateArePriced) {
  const auto dir = std::filesystem::temp_directory_path() / "cb-simulate-large.json";
  std::ofstream(dir) << R"({"nodes": 4096, "gpus_per_node": 8, "leaf_nodes": 32})";
  const auto r = run_clusterbench("simulate " + dir.string() + " --pairs rounds --json");
  std::filesystem::remove(dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  EXPECT_TRUE(out["culprits"].is_null());
  EXPECT_EQ(out["rounds"], 4095);
  EXPECT_FALSE(out["simulated"].get<bool>());
}
