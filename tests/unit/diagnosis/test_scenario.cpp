#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "core/error.hpp"
#include "diagnosis/scenario.hpp"

namespace {

std::string scenario_fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/scenarios/" + name;
}

std::string scenario_refusal(const std::string& path) {
  try {
    cb::load_scenario(path);
  } catch (const cb::InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(Scenario, ReadsTheDocumentedExample) {
  const cb::Scenario s = cb::load_scenario(scenario_fixture("good_request_example.json"));
  EXPECT_EQ(s.nodes, 1024);
  EXPECT_EQ(s.gpus_per_node, 8);
  EXPECT_EQ(s.leaf_nodes, 32);
  EXPECT_EQ(s.leaves(), 32);
  EXPECT_DOUBLE_EQ(s.rail_gbps, 400);
  EXPECT_DOUBLE_EQ(s.noise, 0.05);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.pairs, cb::PairsMode::screen);
  ASSERT_EQ(s.faults.size(), 3u);
  EXPECT_EQ(s.faults[0].kind, cb::FaultKind::node);
  EXPECT_EQ(s.faults[0].host, 412);
  EXPECT_DOUBLE_EQ(s.faults[0].factor, 0.33);
  EXPECT_EQ(s.faults[1].kind, cb::FaultKind::rail);
  EXPECT_EQ(s.faults[1].gpu, 3);
  EXPECT_EQ(s.faults[2].kind, cb::FaultKind::uplink);
  EXPECT_EQ(s.faults[2].leaf, 5);
}

TEST(Scenario, DefaultsWhatItOmits) {
  const cb::Scenario s = cb::load_scenario(scenario_fixture("good_minimal.json"));
  EXPECT_EQ(s.leaf_nodes, 2) << "one leaf holding every node";
  EXPECT_DOUBLE_EQ(s.oversubscription, 1);
  EXPECT_DOUBLE_EQ(s.noise, 0);
  EXPECT_TRUE(s.faults.empty());
  const cb::Scenario partial = cb::parse_scenario(
      nlohmann::json{{"nodes", 10}, {"gpus_per_node", 1}, {"leaf_nodes", 4}}, "x");
  EXPECT_EQ(partial.leaves(), 3) << "the last leaf holds the two left over";
  EXPECT_EQ(cb::simulated_host_name(7), "node0007");
  EXPECT_EQ(cb::simulated_host_name(65535), "node65535");
}

// Every file of the shared set of broken scenarios (also read by the schema's test) is refused
// with one line naming the file and the field.
TEST(Scenario, RefusesEachBrokenFileNamingTheField) {
  const std::map<std::string, std::string> expected = {
      {"bad_nodes_above_65536", "nodes: must be 2..65536"},
      {"bad_nodes_missing", "nodes: required"},
      {"bad_noise_negative", "noise: must be in [0, 0.5]"},
      {"bad_factor_zero", "faults[0].factor: must be in (0, 1]"},
      {"bad_factor_above_one", "faults[0].factor: must be in (0, 1]"},
      {"bad_unknown_kind", "faults[0].kind: expected node, rail or uplink, got 'switch'"},
      {"bad_unknown_field", "unknown field 'nosie'"},
      {"bad_rail_without_gpu", "faults[0].gpu: required for a rail fault"},
      {"bad_node_with_gpu", "faults[0]: unknown field 'gpu'"},
      {"bad_node_direction", "faults[0].direction: expected both, egress or ingress, got \"up\""},
      {"bad_pairs_mode", "pairs: expected screen, rounds or sequential, got 'all'"},
      {"bad_oversubscription_below_one", "oversubscription: must be in [1, 64]"},
      {"bad_host_not_integer", "faults[0].host: expected an integer"},
      {"bad_semantic_host_out_of_range", "faults[0].host: must be 0..15, got 16"},
      {"bad_semantic_gpu_out_of_range", "faults[0].gpu: must be 0..7, got 8"},
      {"bad_semantic_leaf_out_of_range", "faults[0].leaf: must be 0..1, got 2"},
      {"bad_semantic_planted_twice", "faults[1]: the same component is planted twice"},
  };
  std::size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(CB_SOURCE_DIR) +
                                                               "/tests/fixtures/scenarios")) {
    const std::string stem = entry.path().stem().string();
    if (stem.rfind("bad_", 0) != 0)
      continue;
    ++seen;
    ASSERT_TRUE(expected.count(stem)) << "no expectation for " << stem;
    const std::string why = scenario_refusal(entry.path().string());
    EXPECT_NE(why.find(expected.at(stem)), std::string::npos) << stem << ": " << why;
    EXPECT_NE(why.find(stem + ".json"), std::string::npos) << "names the file: " << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
  EXPECT_EQ(seen, expected.size());
}

TEST(Scenario, RefusesWrongTypesAndFiniteBounds) {
  auto why = [](const nlohmann::json& doc) {
    try {
      cb::parse_scenario(doc, "s.json");
    } catch (const cb::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(why(nlohmann::json::array()).find("s.json: expected an object"), std::string::npos);
  EXPECT_NE(why({{"nodes", "8"}, {"gpus_per_node", 1}}).find("nodes: expected an integer"),
            std::string::npos);
  EXPECT_NE(
      why({{"nodes", 8}, {"gpus_per_node", 1}, {"faults", {}}}).find("faults: expected an array"),
      std::string::npos);
  EXPECT_NE(why({{"nodes", 8}, {"gpus_per_node", 65}}).find("gpus_per_node: must be 1..64"),
            std::string::npos);
  EXPECT_NE(why({{"nodes", 8}, {"gpus_per_node", 1}, {"leaf_nodes", 9}}).find("leaf_nodes"),
            std::string::npos);
  EXPECT_NE(why({{"nodes", 8}, {"gpus_per_node", 1}, {"noise", 0.6}}).find("noise"),
            std::string::npos);
  EXPECT_NE(why({{"nodes", 8}, {"gpus_per_node", 1}, {"rail_gbps", 0}}).find("rail_gbps"),
            std::string::npos);
  EXPECT_NE(why({{"nodes", 8}, {"gpus_per_node", 1}, {"seed", -1}}).find("seed"),
            std::string::npos);
  EXPECT_NE(why({{"nodes", 8}, {"gpus_per_node", 1}, {"faults", {1}}}).find("faults[0]: expected"),
            std::string::npos);
}
