#include "runtime/topology.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "core/error.hpp"
#include "core/units.hpp"

namespace cb {

int NodeLayout::node_count() const {
  return node_of_rank.empty() ? 0 : *std::max_element(node_of_rank.begin(), node_of_rank.end()) + 1;
}

int NodeLayout::ranks_on_node(int node) const {
  return static_cast<int>(std::count(node_of_rank.begin(), node_of_rank.end(), node));
}

std::vector<int> NodeLayout::node_aware_order() const {
  // A counting sort by node, stable in rank order: two passes over the ranks (a pass per node
  // was 8 million steps at 1,024 nodes x 8, on every rank, for every GPU count).
  const auto nodes = static_cast<std::size_t>(node_count());
  std::vector<std::size_t> start(nodes + 1, 0);
  for (int node : node_of_rank)
    ++start[static_cast<std::size_t>(node) + 1];
  for (std::size_t i = 1; i <= nodes; ++i)
    start[i] += start[i - 1];
  std::vector<int> order(node_of_rank.size());
  for (std::size_t r = 0; r < node_of_rank.size(); ++r)
    order[start[static_cast<std::size_t>(node_of_rank[r])]++] = static_cast<int>(r);
  return order;
}

NodeLayout make_layout(const std::vector<int>& node_key_of_rank,
                       const std::vector<std::string>& host_of_rank) {
  NodeLayout layout;
  std::map<int, int> index_of_key;
  for (int key : node_key_of_rank) {
    auto [it, inserted] = index_of_key.emplace(key, static_cast<int>(index_of_key.size()));
    layout.node_of_rank.push_back(it->second);
  }
  layout.host_of_rank = host_of_rank;
  layout.host_of_rank.resize(node_key_of_rank.size());
  return layout;
}

std::vector<int> members_for_count(const NodeLayout& layout, int n) {
  std::vector<int> order = layout.node_aware_order();
  order.resize(static_cast<std::size_t>(std::clamp<int>(n, 0, static_cast<int>(order.size()))));
  return order;
}

Placement placement_of(const NodeLayout& layout, const std::vector<int>& members) {
  std::map<int, int> per_node;
  for (int r : members)
    ++per_node[layout.node_of_rank[static_cast<std::size_t>(r)]];
  Placement p;
  p.nodes = static_cast<int>(per_node.size());
  p.ranks_per_node = 0;
  for (const auto& [node, count] : per_node)
    p.ranks_per_node = std::max(p.ranks_per_node, count);
  return p;
}

std::vector<int> auto_gpu_counts_single_node(int world_size) {
  std::vector<int> counts;
  for (int n = 1; n < world_size; n *= 2)
    counts.push_back(n);
  counts.push_back(world_size);
  return counts;
}

std::vector<int> auto_gpu_counts(const NodeLayout& layout) {
  const int world = static_cast<int>(layout.node_of_rank.size());
  const int nodes = layout.node_count();
  if (nodes <= 1)
    return auto_gpu_counts_single_node(world);
  std::set<int> counts;
  const int first_node = layout.ranks_on_node(0);
  for (int n = 1; n < first_node; n *= 2)
    counts.insert(n);
  counts.insert(first_node);
  // Whole nodes: the count of ranks on the first k nodes in node-aware order.
  auto ranks_on_first = [&](int k) {
    int total = 0;
    for (int node = 0; node < k; ++node)
      total += layout.ranks_on_node(node);
    return total;
  };
  for (int k = 2; k < nodes; k *= 2)
    counts.insert(ranks_on_first(k));
  counts.insert(world);
  return {counts.begin(), counts.end()};
}

std::vector<int> parse_gpu_counts_syntax(std::string_view text) {
  return parse_gpu_counts(text, std::numeric_limits<int>::max());
}

std::vector<int> parse_gpu_counts(std::string_view text, int world_size) {
  std::vector<int> counts;
  for (const auto& item : split_list(text, "--gpus")) {
    const long long n = parse_integer(item, "--gpus");
    if (n < 1)
      throw InputError("--gpus: counts must be at least 1, got " + shown(item));
    if (n > world_size) {
      throw InputError("--gpus: " + item + " is more than the " + std::to_string(world_size) +
                       " devices (ranks) of this job; use --np or launch more ranks");
    }
    if (!counts.empty() && n <= counts.back()) {
      throw InputError("--gpus: counts must be strictly increasing, got '" + std::string(text) +
                       "'");
    }
    counts.push_back(static_cast<int>(n));
  }
  return counts;
}

} // namespace cb
