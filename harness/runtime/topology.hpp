#pragma once
// Where ranks live and which ranks take part at each GPU count. Pure functions of the layout so
// they are unit-tested without MPI.
//
// The sweep is node-aware: a count first fills one node (1, 2, 4, ... ranks on node 0) and then
// grows by whole nodes (2, 4, 8, ... nodes), so the curve's intra-node part and inter-node part
// are separate and labelled.
#include <string>
#include <string_view>
#include <vector>

namespace cb {

struct NodeLayout {
  std::vector<int> node_of_rank;         // node index of each world rank, numbered in order of
                                         // first appearance by world rank
  std::vector<std::string> host_of_rank; // host name of each world rank
  int node_count() const;
  int ranks_on_node(int node) const;
  // World ranks in node-aware order: node 0's ranks, then node 1's, ...
  std::vector<int> node_aware_order() const;
};

// Builds a layout from each rank's node key (any value shared by exactly the ranks of one node).
NodeLayout make_layout(const std::vector<int>& node_key_of_rank,
                       const std::vector<std::string>& host_of_rank);

struct Placement {
  int nodes = 1;
  int ranks_per_node = 1; // the most ranks on any one node taking part
  std::string tier() const { return nodes > 1 ? "inter" : "intra"; }
};

// The world ranks taking part at count n: the first n in node-aware order.
std::vector<int> members_for_count(const NodeLayout& layout, int n);
Placement placement_of(const NodeLayout& layout, const std::vector<int>& members);

// --gpus auto: powers of two up to the ranks of the first node, then that node's size, then whole
// nodes 2, 4, 8, ... and all nodes. On one node: powers of two up to the world size, plus it.
std::vector<int> auto_gpu_counts(const NodeLayout& layout);
std::vector<int> auto_gpu_counts_single_node(int world_size);

// "1,2,4" -> counts; strictly increasing, each in [1, world_size]. InputError names --gpus.
std::vector<int> parse_gpu_counts(std::string_view text, int world_size);
// The same checks without the upper bound (before the world size is known).
std::vector<int> parse_gpu_counts_syntax(std::string_view text);

} // namespace cb
