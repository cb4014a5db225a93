#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/run_metadata.hpp"
#include "runtime/topology.hpp"

using namespace cb;

// Ranks spread round-robin over two nodes (a cyclic mapping): each node's entry holds its own
// ranks' devices in rank order, and the adapters its first rank found.
TEST(RunHeader, GroupsEachRanksDeviceUnderItsNodeWithTheNodesAdapters) {
  const NodeLayout layout = make_layout({7, 9, 7, 9}, {"a", "b", "a", "b"});
  std::vector<nlohmann::json> devices;
  for (int r = 0; r < 4; ++r)
    devices.push_back({{"index", r / 2}, {"name", "dev" + std::to_string(r)}});
  const std::vector<nlohmann::json> nics = {nlohmann::json::array({"nicA"}),
                                            nlohmann::json::array({"nicB"}),
                                            nlohmann::json::array(), nlohmann::json::array()};
  const nlohmann::json run = make_run_header({"clusterbench", "run"}, "host", "mpirun", layout,
                                             devices, nlohmann::json::object(), "mpi", nics);
  ASSERT_EQ(run["hosts"].size(), 2u);
  EXPECT_EQ(run["world_size"], 4);
  EXPECT_EQ(run["nodes"], 2);
  const auto& a = run["hosts"][0];
  const auto& b = run["hosts"][1];
  EXPECT_EQ(a["host"], "a");
  EXPECT_EQ(a["node"], 0);
  EXPECT_EQ(b["host"], "b");
  EXPECT_EQ(b["node"], 1);
  ASSERT_EQ(a["devices"].size(), 2u);
  EXPECT_EQ(a["devices"][0]["rank"], 0);
  EXPECT_EQ(a["devices"][1]["rank"], 2);
  EXPECT_EQ(a["devices"][1]["name"], "dev2");
  ASSERT_EQ(b["devices"].size(), 2u);
  EXPECT_EQ(b["devices"][0]["rank"], 1);
  EXPECT_EQ(b["devices"][1]["rank"], 3);
  EXPECT_EQ(a["nics"], nlohmann::json::array({"nicA"}));
  EXPECT_EQ(b["nics"], nlohmann::json::array({"nicB"}));
}
