#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "diagnosis/topology.hpp"

using cb::InputError;
using cb::parse_json_topology;
using cb::parse_slurm_topology;

namespace {

// The message of the InputError `parse` throws, or "" when it throws none.
template <class F> std::string topology_refusal(F&& parse) {
  try {
    parse();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(Topology, ReadsLeavesSpinesAndHostRangesAsSlurmDoes) {
  const auto t = parse_slurm_topology("# a comment\n"
                                      "SwitchName=leaf01 Nodes=gpu[001-003] LinkSpeed=100\n"
                                      "switchname=leaf02 NODES=a[1-3,7],b5   # trailing\n"
                                      "\n"
                                      "SwitchName=spine1 Switches=leaf[01-02]\n",
                                      "topo.conf");
  ASSERT_EQ(t.leaves, (std::vector<std::string>{"leaf01", "leaf02"}));
  EXPECT_EQ(t.leaf_parent, (std::vector<std::string>{"spine1", "spine1"}));
  EXPECT_EQ(t.leaf_of_host.at("gpu001"), 0);
  EXPECT_EQ(t.leaf_of_host.at("gpu003"), 0);
  EXPECT_EQ(t.leaf_of_host.count("gpu1"), 0u) << "zero padding kept";
  for (const char* host : {"a1", "a2", "a3", "a7", "b5"})
    EXPECT_EQ(t.leaf_of_host.at(host), 1) << host;
  EXPECT_EQ(t.leaf_of_host.count("a4"), 0u);
  EXPECT_EQ(t.line_of_host.at("b5"), 3);
}

TEST(Topology, JoinsContinuedLinesAndKeepsEscapedHashes) {
  const auto t = parse_slurm_topology("SwitchName=leaf\\#1 \\\n  Nodes=n[1-2] \\\n  LinkSpeed=1\n"
                                      "SwitchName=leaf2 Nodes=n3\n",
                                      "topo.conf");
  ASSERT_EQ(t.leaves.size(), 2u);
  EXPECT_EQ(t.leaves[0], "leaf#1");
  EXPECT_EQ(t.leaf_of_host.at("n2"), 0);
  EXPECT_EQ(t.line_of_host.at("n3"), 4) << "the line numbers count the continued lines";
  EXPECT_EQ(t.leaf_parent[0], "");
}

TEST(Topology, RefusesEachBadLineNamingFileAndLine) {
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {"SwitchName leaf01\n", "topo.conf line 1: expected Key=Value"},
      {"SwitchName=a Nodes=n1\nSwitchName=b Nodez=n2\n", "topo.conf line 2: unknown parameter"},
      {"SwitchName=a Nodes=gpu[5-1]\n", "topo.conf line 1: Nodes='gpu[5-1]': range 5-1 runs"},
      {"SwitchName=a Nodes=gpu[1-\n", "topo.conf line 1: Nodes='gpu[1-': '[' without ']'"},
      {"SwitchName=a Nodes=gpu[x]\n", "topo.conf line 1: Nodes"},
      {"Nodes=n1\n", "topo.conf line 1: a line needs SwitchName="},
      {"SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n",
       "line 2: switch a already defined on line 1"},
      {"SwitchName=a Nodes=n1\nSwitchName=s Switches=a,b\n", "line 2: Switches names b, which no"},
      {"SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n2\n", "line 2: host n2 is already under a"},
      {"SwitchName=a Nodes=n1\nSwitchName=s1 Switches=a\nSwitchName=s2 Switches=a\n",
       "line 3: switch a is already under s1"},
      {"SwitchName=a Nodes=n1\nSwitchName=s1 Switches=s2\nSwitchName=s2 Switches=s1\n",
       "switch cycle"},
      {"SwitchName=a Nodes=n1 Switches=a\n", "line 1: switch a lists both Nodes= and Switches="},
      {"SwitchName=a Nodes=n1\nSwitchName=b Nodes=n2 Switches=a\n",
       "line 2: switch b lists both Nodes= and Switches="},
      {"SwitchName=a Nodes=n1 Nodes=n2\n", "line 1: Nodes given twice"},
      {"SwitchName=a Nodes=n1\nSwitchName=s Switches=a switches=a\n",
       "line 2: Switches given twice"},
      {"SwitchName=a LinkSpeed=1 Nodes=n1 linkspeed=2\n", "line 1: LinkSpeed given twice"},
      {"SwitchName=s\xff Nodes=n1\n", "line 1: SwitchName='s\\xff': a name is printable ASCII"},
      {"SwitchName=a Nodes=n\x01[1-2]\n", "line 1: Nodes='n\\x01[1-2]': a name is printable"},
      {"SwitchName=a Nodes=n1\nSwitchName=s Switches=a\xe9\n", "line 2: Switches="},
      {"SwitchName=a Nodes=h[0-65536]\n", "line 1: Nodes='h[0-65536]': too many hosts"},
      // The budget is the whole file's: two lists that each fit are refused together.
      {"SwitchName=a Nodes=h[0-39999]\nSwitchName=b Nodes=g[0-39999]\n",
       "line 2: Nodes='g[0-39999]': too many hosts (more than 25536)"},
      {"SwitchName=a Nodes=h[0-999999,0-999999,0-999999]\n", "too many hosts"},
      {"SwitchName=a Nodes=h[0-999][0-999]\n", "too many hosts"},
      {"# nothing\n", "topo.conf: no switches"},
      {"SwitchName=s1 Switches=s2\nSwitchName=s2\n", "no switch lists Nodes="},
  };
  for (const auto& c : cases) {
    const std::string why = topology_refusal([&] { parse_slurm_topology(c.text, "topo.conf"); });
    EXPECT_TRUE(has(why, c.expected)) << c.text << " -> " << why;
    EXPECT_FALSE(has(why, "\n")) << why;
  }
}

TEST(Topology, ReadsTheJsonMap) {
  const auto t = parse_json_topology(
      R"({"gpu[001-002]": "leaf01", "gpu003": {"leaf": "leaf02", "spine": "spine1"}})", "t.json");
  ASSERT_EQ(t.leaves.size(), 2u);
  const auto leaf = [&](const std::string& host) {
    return t.leaves[static_cast<std::size_t>(t.leaf_of_host.at(host))];
  };
  EXPECT_EQ(leaf("gpu001"), "leaf01");
  EXPECT_EQ(leaf("gpu002"), "leaf01");
  EXPECT_EQ(leaf("gpu003"), "leaf02");
  EXPECT_EQ(t.leaf_parent[static_cast<std::size_t>(t.leaf_of_host.at("gpu003"))], "spine1");
  EXPECT_TRUE(has(topology_refusal([] { parse_json_topology(R"({"n1": 5})", "t.json"); }),
                  "t.json: host 'n1': expected a leaf name"));
  EXPECT_TRUE(has(topology_refusal([] {
                    parse_json_topology(R"({"n1": {"leaf": "a", "spine": "s1"},
                                            "n2": {"leaf": "a", "spine": "s2"}})",
                                        "t.json");
                  }),
                  "leaf a is under s1 elsewhere, here under s2"));
  EXPECT_TRUE(
      has(topology_refusal([] { parse_json_topology(R"({"n[1-2]": "a", "n2": "b"})", "t.json"); }),
          "host n2 is already under"));
  EXPECT_TRUE(
      has(topology_refusal([] { parse_json_topology("[1]", "t.json"); }), "t.json: expected"));
  EXPECT_TRUE(
      has(topology_refusal([] { parse_json_topology("{\"n1\": ", "t.json"); }), "not valid JSON"));
}

TEST(Topology, RefusesBadNamesSizesAndShapesInTheJsonMap) {
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      // A spine that is a leaf too: here a cycle of two switches, each the other's spine.
      {R"({"node[0000-0031]": {"leaf": "A", "spine": "B"},
           "node[0032-0063]": {"leaf": "B", "spine": "A"}})",
       "t.json: B is the spine above leaf A and a leaf too"},
      {R"({"n1": {"leaf": "A", "spine": "A"}})", "t.json: A is the spine above leaf A"},
      {"{\"n\u00e9\": \"a\"}", "t.json: host='n\xC3\xA9': a name is printable ASCII"},
      {R"({"n 1": "a"})", "a name is printable ASCII"},
      {"{\"n1\": \"le\u00e9f\"}", "t.json: host 'n1': leaf="},
      {"{\"n1\": {\"leaf\": \"a\", \"spine\": \"s\\t\"}}", "t.json: host 'n1': spine="},
      {R"({"h[0-65536]": "a"})", "t.json: host='h[0-65536]': too many hosts"},
      {R"({"h[0-39999]": "a", "g[0-39999]": "b"})", "too many hosts (more than 25536)"},
  };
  for (const auto& c : cases) {
    const std::string why = topology_refusal([&] { parse_json_topology(c.text, "t.json"); });
    EXPECT_TRUE(has(why, c.expected)) << c.text << " -> " << why;
    EXPECT_FALSE(has(why, "\n")) << why;
  }
  // The cap itself is accepted.
  EXPECT_EQ(parse_json_topology(R"({"h[1-65536]": "a"})", "t.json").leaf_of_host.size(), 65536u);
  EXPECT_EQ(parse_slurm_topology("SwitchName=a Nodes=h[1-65536]\n", "t.conf").leaf_of_host.size(),
            65536u);
}

TEST(Topology, PlacesTheJobsHostsAndRefusesOneItDoesNotName) {
  const auto t =
      parse_slurm_topology("SwitchName=a Nodes=n[1-4]\nSwitchName=b Nodes=n[5-8]\n", "topo.conf");
  const auto placed = cb::place_hosts(t, {"n5", "n1", "n6"});
  EXPECT_EQ(placed.leaf_of_node, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(placed.leaf_names, (std::vector<std::string>{"b", "a"}));
  ASSERT_EQ(placed.notes.size(), 1u);
  EXPECT_TRUE(has(placed.notes[0], "5 host(s) of the topology are not in this job"));
  EXPECT_TRUE(has(topology_refusal([&] {
                    cb::place_hosts(t, {"n1", "n9"});
                  }),
                  "topo.conf: job host n9 is under no leaf switch"));
}

TEST(Topology, LoadsEitherFormFromAFile) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto conf = dir / "cb-topology-test.conf";
  const auto map = dir / "cb-topology-test.json";
  std::ofstream(conf) << "SwitchName=a Nodes=n1\n";
  std::ofstream(map) << "  {\"n1\": \"a\"}";
  EXPECT_EQ(cb::load_topology(conf.string()).leaves.size(), 1u);
  EXPECT_EQ(cb::load_topology(map.string()).leaf_of_host.at("n1"), 0);
  std::filesystem::remove(conf);
  std::filesystem::remove(map);
}
