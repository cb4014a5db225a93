#include "diagnosis/fabric_model.hpp"

#include <algorithm>
#include <limits>

namespace cb {

void measure_round(PairOracle& oracle, const std::vector<Flow>& flows, long long tests,
                   Measurements& measurements) {
  if (flows.empty())
    return;
  const std::vector<double> figures = oracle.measure(flows);
  const int rails = oracle.rails();
  const auto round = static_cast<std::uint32_t>(measurements.rounds);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    for (int r = 0; r < rails; ++r) {
      Observation o;
      o.src = static_cast<std::uint32_t>(flows[f].src);
      o.dst = static_cast<std::uint32_t>(flows[f].dst);
      o.round = round;
      o.rail = static_cast<std::uint16_t>(r);
      o.value = static_cast<float>(
          figures[f * static_cast<std::size_t>(rails) + static_cast<std::size_t>(r)]);
      measurements.observations.push_back(o);
    }
  }
  measurements.tests += tests;
  measurements.rounds += 1;
}

FabricModel::FabricModel(const Scenario& scenario)
    : scenario_(scenario), node_send_factor_(static_cast<std::size_t>(scenario.nodes), 1.0),
      node_receive_factor_(static_cast<std::size_t>(scenario.nodes), 1.0),
      uplink_factor_(static_cast<std::size_t>(scenario.leaves()), 1.0),
      leaf_capacity_(static_cast<std::size_t>(scenario.leaves()), 0.0),
      up_rates_(static_cast<std::size_t>(scenario.leaves())),
      down_rates_(static_cast<std::size_t>(scenario.leaves())),
      up_level_(static_cast<std::size_t>(scenario.leaves())),
      down_level_(static_cast<std::size_t>(scenario.leaves())), random_(scenario.seed) {
  for (const auto& f : scenario.faults) {
    if (f.kind == FaultKind::node) {
      const auto h = static_cast<std::size_t>(f.host);
      if (f.direction != Direction::ingress)
        node_send_factor_[h] = f.factor;
      if (f.direction != Direction::egress)
        node_receive_factor_[h] = f.factor;
    } else if (f.kind == FaultKind::rail) {
      rail_factor_[static_cast<long long>(f.host) * scenario.gpus_per_node + f.gpu] = f.factor;
    } else {
      uplink_factor_[static_cast<std::size_t>(f.leaf)] = f.factor;
    }
  }
  for (int leaf = 0; leaf < scenario.leaves(); ++leaf) {
    const int members = std::min(scenario.leaf_nodes, scenario.nodes - leaf * scenario.leaf_nodes);
    leaf_capacity_[static_cast<std::size_t>(leaf)] =
        members * scenario.gpus_per_node * scenario.rail_gbps / scenario.oversubscription *
        uplink_factor_[static_cast<std::size_t>(leaf)];
  }
}

double FabricModel::end_rate(int host, int rail, bool sending) const {
  const auto h = static_cast<std::size_t>(host);
  double rate = scenario_.rail_gbps * (sending ? node_send_factor_[h] : node_receive_factor_[h]);
  if (!rail_factor_.empty()) {
    auto it = rail_factor_.find(static_cast<long long>(host) * scenario_.gpus_per_node + rail);
    if (it != rail_factor_.end())
      rate *= it->second;
  }
  return rate;
}

namespace {

// Max-min fair level of one uplink direction: the rate no flow may exceed so that the flows fit
// in `capacity`; flows slower than it keep their own rate. Infinite when everything fits.
double fair_level(std::vector<double>& rates, double capacity) {
  double total = 0;
  for (double r : rates)
    total += r;
  if (total <= capacity)
    return std::numeric_limits<double>::infinity();
  std::sort(rates.begin(), rates.end());
  double left = capacity;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const double level = left / static_cast<double>(rates.size() - i);
    if (rates[i] >= level)
      return level;
    left -= rates[i];
  }
  return std::numeric_limits<double>::infinity();
}

} // namespace

std::vector<double> FabricModel::measure(const std::vector<Flow>& flows) {
  const int rails = scenario_.gpus_per_node;
  std::vector<double> rates(flows.size() * static_cast<std::size_t>(rails));
  std::vector<int> touched;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const int a = flows[f].src, b = flows[f].dst;
    const int la = leaf_of(a), lb = leaf_of(b);
    for (int r = 0; r < rails; ++r) {
      double& rate = rates[f * static_cast<std::size_t>(rails) + static_cast<std::size_t>(r)];
      rate = std::min(end_rate(a, r, true), end_rate(b, r, false));
      if (la != lb) {
        up_rates_[static_cast<std::size_t>(la)].push_back(rate);
        down_rates_[static_cast<std::size_t>(lb)].push_back(rate);
      }
    }
    if (la != lb) {
      touched.push_back(la);
      touched.push_back(lb);
    }
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (int leaf : touched) {
    const auto l = static_cast<std::size_t>(leaf);
    up_level_[l] = fair_level(up_rates_[l], leaf_capacity_[l]);
    down_level_[l] = fair_level(down_rates_[l], leaf_capacity_[l]);
  }
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const auto la = static_cast<std::size_t>(leaf_of(flows[f].src));
    const auto lb = static_cast<std::size_t>(leaf_of(flows[f].dst));
    const double cap = la == lb ? std::numeric_limits<double>::infinity()
                                : std::min(up_level_[la], down_level_[lb]);
    for (int r = 0; r < rails; ++r) {
      double& rate = rates[f * static_cast<std::size_t>(rails) + static_cast<std::size_t>(r)];
      rate = std::min(rate, cap) * std::max(0.01, 1.0 + scenario_.noise * normal_(random_));
    }
  }
  for (int leaf : touched) {
    up_rates_[static_cast<std::size_t>(leaf)].clear();
    down_rates_[static_cast<std::size_t>(leaf)].clear();
  }
  return rates;
}

} // namespace cb
