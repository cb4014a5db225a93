#pragma once
// What the screen across nodes (--pairs screen, docs/DIAGNOSIS.md) costs a healthy fleet:
// run_screen itself against a noiseless healthy fabric model (every figure alike, so nothing is
// suspect and no confirmation or bisection round follows), counting its rounds and the disjoint
// sub-rounds the pair tests measure each round in (bench/links/pair_screen.hpp). Milliseconds at
// 16,384 nodes.
#include <string>
#include <vector>

namespace cb {

struct ScreenCost {
  int rounds = 0;      // the screen's rounds
  int sub_rounds = 0;  // engine measurements of them (per direction of a directed test)
  long long tests = 0; // group tests, as docs/DIAGNOSIS.md counts them
  std::string groups;  // "topology" or "sqrt"
};

// The screen's groups of `nodes` nodes: ceil(sqrt(nodes)) consecutive nodes, or with a topology
// file (`topology_path`) its leaves in file order, each taking as many of the nodes as it names
// hosts. InputError naming the file when it does not parse or names fewer hosts than `nodes`.
std::vector<int> planned_screen_groups(int nodes, const std::string& topology_path,
                                       std::string& groups);

// run_screen's cost on a healthy fleet grouped so.
ScreenCost healthy_screen_cost(const std::vector<int>& group_of_node);

} // namespace cb
