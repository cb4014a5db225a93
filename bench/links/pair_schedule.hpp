#pragma once
// The round-robin ("circle") schedule of the pair tests: every unordered pair of n members in
// exactly one round, no member in two pairs of a round, so all pairs of a round can be measured at
// once. n - 1 rounds for even n; for odd n a phantom member is added and n rounds result, the
// member paired with the phantom sitting the round out. Member n - 1 (or the phantom) stays put
// while the others rotate one place per round (Kirkman's construction, as tournament schedulers
// and NVIDIA ClusterKit use it).
//
// Pure and O(1) per lookup: a rank asks for its own partner in a round without the schedule of
// the whole fleet (n^2 / 2 pairs at 1,024 nodes would be half a million entries on every rank).
#include <string>
#include <utility>
#include <vector>

namespace cb {

using MemberPair = std::pair<int, int>; // first < second

// Rounds of the schedule of n members: n - 1 for even n, n for odd n, 0 for n < 2.
int circle_round_count(int n);
// member's partner in round `round` (0-based), or -1 when it sits that round out.
int circle_partner(int n, int round, int member);
// The pairs of one round, each with first < second, ordered by first.
std::vector<MemberPair> circle_round(int n, int round);
// The round an unordered pair runs in (a != b), the inverse of circle_partner.
int circle_round_of(int n, int a, int b);

// Who takes part in which tier's rounds, from each rank's node. Within a node all its ranks pair
// up by the schedule, every node running its round r at the same time; across nodes the unit is
// the node pair, and the first rank of each node stands for it (the host backend's one rank per
// node in the inter-node rounds).
class PairTiers {
public:
  // `rail_key_of_rank`: what puts a rank on a rail, the PCI bus id of its GPU (a node's GPU in the
  // same slot as another node's sits on the same rail, whatever rank drives it); empty, or an
  // empty key, for rank order.
  explicit PairTiers(const std::vector<int>& node_of_rank,
                     const std::vector<std::string>& rail_key_of_rank = {});
  int nodes() const { return static_cast<int>(members_.size()); }
  // The ranks of node i (dense node order: by first appearance), ascending.
  const std::vector<int>& members(int node) const {
    return members_[static_cast<std::size_t>(node)];
  }
  int leader(int node) const { return members(node).front(); }
  int node_index_of_rank(int rank) const { return index_of_rank_[static_cast<std::size_t>(rank)]; }
  bool any_intra() const { return intra_rounds() > 0; }
  int intra_rounds() const; // the most of any node
  int inter_rounds() const { return circle_round_count(nodes()); }
  std::vector<MemberPair> intra_round(int round) const; // rank pairs, every node's at once
  std::vector<MemberPair> inter_round(int round) const; // leader pairs
  // The rank pairs that stand for node pair (a, b): the leaders, or with `rails` the ranks of
  // rail i of a and of b (a GPU node's rails, one NIC per GPU, all at once).
  std::vector<MemberPair> node_pair_ranks(int a, int b, bool rails) const;
  int local_index_of_rank(int rank) const;
  // The rail of `rank`: the position of its rail key (its GPU's bus id) among its node's, ties
  // and missing keys by rank. The same GPU slot is the same rail on every node.
  int rail_of_rank(int rank) const;
  // Every pair of a tier, in schedule order (for --pairs sequential).
  std::vector<MemberPair> all_intra() const;
  std::vector<MemberPair> all_inter() const;

private:
  std::vector<std::vector<int>> members_;
  std::vector<std::vector<int>> rails_; // each node's ranks in rail order
  std::vector<int> index_of_rank_;
};

// Retests that must be measured at once, packed greedily (in list order, so the first pairs get
// the first rounds) into rounds in which no member is twice: element r of the result holds the
// indices into `pairs` of round r. With max_rounds, a pair that fits in none of the first
// max_rounds rounds is left out.
std::vector<std::vector<std::size_t>>
pack_into_rounds(const std::vector<MemberPair>& pairs, int members,
                 std::size_t max_rounds = static_cast<std::size_t>(-1));

} // namespace cb
