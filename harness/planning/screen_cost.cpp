#include "planning/screen_cost.hpp"

#include "core/error.hpp"
#include "diagnosis/fabric_model.hpp"
#include "diagnosis/schedules.hpp"
#include "diagnosis/topology.hpp"

namespace cb {
namespace {

// The fabric model, counting the sub-rounds the pair tests would split each round into.
class CountingOracle : public PairOracle {
public:
  explicit CountingOracle(FabricModel& fabric) : fabric_(fabric) {}
  int nodes() const override { return fabric_.nodes(); }
  int rails() const override { return fabric_.rails(); }
  std::vector<double> measure(const std::vector<Flow>& flows) override {
    sub_rounds += static_cast<int>(disjoint_sub_rounds(flows).size());
    return fabric_.measure(flows);
  }
  int sub_rounds = 0;

private:
  FabricModel& fabric_;
};

} // namespace

std::vector<int> planned_screen_groups(int nodes, const std::string& topology_path,
                                       std::string& groups) {
  if (topology_path.empty()) {
    groups = "sqrt";
    return sqrt_groups(nodes);
  }
  const Topology topology = load_topology(topology_path);
  std::vector<int> hosts_of_leaf(topology.leaves.size(), 0);
  for (const auto& [host, leaf] : topology.leaf_of_host)
    ++hosts_of_leaf[static_cast<std::size_t>(leaf)];
  std::vector<int> out;
  for (std::size_t leaf = 0; leaf < hosts_of_leaf.size(); ++leaf) {
    for (int k = 0; k < hosts_of_leaf[leaf] && static_cast<int>(out.size()) < nodes; ++k)
      out.push_back(static_cast<int>(leaf));
  }
  if (static_cast<int>(out.size()) < nodes) {
    throw InputError(topology_path + ": the topology places " + std::to_string(out.size()) +
                     " hosts, fewer than the " + std::to_string(nodes) + " nodes planned");
  }
  groups = "topology";
  return out;
}

ScreenCost healthy_screen_cost(const std::vector<int>& group_of_node) {
  ScreenCost cost;
  if (group_of_node.size() < 2)
    return cost;
  Scenario healthy;
  healthy.nodes = static_cast<int>(group_of_node.size());
  healthy.gpus_per_node = 1; // the rounds do not depend on the rails
  healthy.leaf_nodes = healthy.nodes;
  FabricModel fabric(healthy);
  CountingOracle oracle(fabric);
  const Measurements m = run_screen(oracle, group_of_node, ScreenSettings{});
  cost.rounds = m.rounds;
  cost.tests = m.tests;
  cost.sub_rounds = oracle.sub_rounds;
  return cost;
}

} // namespace cb
