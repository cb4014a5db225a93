#pragma once
// A modelled fabric standing in for the network (`clusterbench simulate`): every node has one NIC
// rail per GPU into its leaf switch, rail g of one node reaching rail g of another; leaves are
// non-blocking inside and reach each other through their uplinks, whose capacity is the leaf's
// rails divided by the oversubscription. A planted fault scales a component's rate: a node's every
// rail both ways (or only what it sends, or only what it receives: its `direction`), one rail (one
// GPU's NIC) both ways, or a leaf's uplinks both ways.
//
// A flow's rate (per rail) is the slower of its two ends; flows that cross leaves share their
// source leaf's up capacity and their destination leaf's down capacity max-min fairly (each
// direction of an uplink water-filled on its own: a flow slower than the fair level keeps its
// rate, the others get the level; a flow gets the lower of its two levels, what one direction
// leaves unused is not handed to the other's flows). Every figure is then multiplied by
// 1 + noise x N(0, 1) (at least 0.01), drawn from the scenario's seed: the same scenario and build
// give the same figures.
#include <random>
#include <unordered_map>
#include <vector>

#include "diagnosis/observation.hpp"
#include "diagnosis/scenario.hpp"

namespace cb {

class FabricModel : public PairOracle {
public:
  explicit FabricModel(const Scenario& scenario);
  int nodes() const override { return scenario_.nodes; }
  int rails() const override { return scenario_.gpus_per_node; }
  // Gbit/s per rail.
  std::vector<double> measure(const std::vector<Flow>& flows) override;
  int leaf_of(int host) const { return host / scenario_.leaf_nodes; }

private:
  // The rate rail `rail` of `host` sends at (or receives at).
  double end_rate(int host, int rail, bool sending) const;

  Scenario scenario_;
  std::vector<double> node_send_factor_, node_receive_factor_;
  std::unordered_map<long long, double> rail_factor_; // host * rails + rail
  std::vector<double> uplink_factor_;
  std::vector<double> leaf_capacity_;                      // Gbit/s each way
  std::vector<std::vector<double>> up_rates_, down_rates_; // this round's crossing rail flows
  std::vector<double> up_level_, down_level_;              // their max-min fair levels
  std::mt19937_64 random_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

} // namespace cb
