#include "links/pair_schedule.hpp"

#include <algorithm>
#include <map>

#include <stdexcept>
#include <string>

namespace cb {
namespace {

// Members of the schedule: n rounded up to even; position `slots - 1` is fixed.
int slots_of(int n) {
  return n % 2 == 0 ? n : n + 1;
}

void check_member(int n, int member) {
  if (member < 0 || member >= n)
    throw std::out_of_range("pair schedule: member " + std::to_string(member) + " of " +
                            std::to_string(n));
}

} // namespace

int circle_round_count(int n) {
  return n < 2 ? 0 : slots_of(n) - 1;
}

int circle_partner(int n, int round, int member) {
  check_member(n, member);
  const int slots = slots_of(n);
  const int ring = slots - 1; // the rotating members
  if (round < 0 || round >= ring)
    throw std::out_of_range("pair schedule: round " + std::to_string(round) + " of " +
                            std::to_string(ring));
  int partner = 0;
  if (member == slots - 1) {
    partner = round; // the fixed member meets the rotating one at position `round`
  } else if (member == round) {
    partner = slots - 1;
  } else {
    // Positions symmetric about `round` on the ring meet: member + partner = 2 round (mod ring).
    partner = ((2 * round - member) % ring + ring) % ring;
  }
  return partner >= n ? -1 : partner; // the phantom of an odd n
}

std::vector<MemberPair> circle_round(int n, int round) {
  std::vector<MemberPair> out;
  for (int member = 0; member < n; ++member) {
    const int partner = circle_partner(n, round, member);
    if (partner > member)
      out.emplace_back(member, partner);
  }
  return out;
}

int circle_round_of(int n, int a, int b) {
  check_member(n, a);
  check_member(n, b);
  if (a == b)
    throw std::out_of_range("pair schedule: a member is not paired with itself");
  const int slots = slots_of(n);
  const int ring = slots - 1;
  if (a == slots - 1)
    return b;
  if (b == slots - 1)
    return a;
  // a + b = 2 round (mod ring), and ring is odd, so 2 has the inverse (ring + 1) / 2.
  return static_cast<int>((static_cast<long long>(a + b) * ((ring + 1) / 2)) % ring);
}

PairTiers::PairTiers(const std::vector<int>& node_of_rank,
                     const std::vector<std::string>& rail_key_of_rank) {
  std::map<int, int> index_of_node; // node id -> dense index
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const auto [it, added] =
        index_of_node.try_emplace(node_of_rank[r], static_cast<int>(members_.size()));
    if (added)
      members_.emplace_back();
    const int index = it->second;
    members_[static_cast<std::size_t>(index)].push_back(static_cast<int>(r));
    index_of_rank_.push_back(index);
  }
  auto key_of = [&](int rank) {
    const auto r = static_cast<std::size_t>(rank);
    return r < rail_key_of_rank.size() ? rail_key_of_rank[r] : std::string();
  };
  for (auto rail : members_) {
    std::stable_sort(rail.begin(), rail.end(), [&](int x, int y) {
      const std::string kx = key_of(x), ky = key_of(y);
      // Ranks without a key keep rank order, after those with one.
      if (kx.empty() != ky.empty())
        return ky.empty();
      return kx < ky;
    });
    rails_.push_back(std::move(rail));
  }
}

int PairTiers::intra_rounds() const {
  int most = 0;
  for (const auto& m : members_)
    most = std::max(most, circle_round_count(static_cast<int>(m.size())));
  return most;
}

std::vector<MemberPair> PairTiers::intra_round(int round) const {
  std::vector<MemberPair> out;
  for (const auto& m : members_) {
    const int n = static_cast<int>(m.size());
    if (round >= circle_round_count(n))
      continue;
    for (const auto& [a, b] : circle_round(n, round))
      out.emplace_back(m[static_cast<std::size_t>(a)], m[static_cast<std::size_t>(b)]);
  }
  return out;
}

std::vector<MemberPair> PairTiers::inter_round(int round) const {
  std::vector<MemberPair> out;
  for (const auto& [a, b] : circle_round(nodes(), round))
    out.emplace_back(leader(a), leader(b));
  return out;
}

std::vector<MemberPair> PairTiers::node_pair_ranks(int a, int b, bool rails) const {
  if (!rails)
    return {{leader(a), leader(b)}};
  std::vector<MemberPair> out;
  const auto& ma = rails_[static_cast<std::size_t>(a)];
  const auto& mb = rails_[static_cast<std::size_t>(b)];
  for (std::size_t i = 0; i < std::min(ma.size(), mb.size()); ++i)
    out.emplace_back(ma[i], mb[i]);
  return out;
}

int PairTiers::local_index_of_rank(int rank) const {
  const auto& m = members(node_index_of_rank(rank));
  return static_cast<int>(std::find(m.begin(), m.end(), rank) - m.begin());
}

int PairTiers::rail_of_rank(int rank) const {
  const auto& rail = rails_[static_cast<std::size_t>(node_index_of_rank(rank))];
  return static_cast<int>(std::find(rail.begin(), rail.end(), rank) - rail.begin());
}

std::vector<MemberPair> PairTiers::all_intra() const {
  std::vector<MemberPair> out;
  for (int r = 0; r < intra_rounds(); ++r) {
    for (const auto& p : intra_round(r))
      out.push_back(p);
  }
  return out;
}

std::vector<MemberPair> PairTiers::all_inter() const {
  std::vector<MemberPair> out;
  for (int r = 0; r < inter_rounds(); ++r) {
    for (const auto& p : inter_round(r))
      out.push_back(p);
  }
  return out;
}

std::vector<std::vector<std::size_t>>
pack_into_rounds(const std::vector<MemberPair>& pairs, int members, std::size_t max_rounds) {
  std::vector<std::vector<std::size_t>> rounds;
  std::vector<std::vector<bool>> busy; // busy[r][member]
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto [a, b] = pairs[i];
    check_member(members, a);
    check_member(members, b);
    std::size_t r = 0;
    while (r < rounds.size() &&
           (busy[r][static_cast<std::size_t>(a)] || busy[r][static_cast<std::size_t>(b)]))
      ++r;
    if (r == rounds.size()) {
      if (r >= max_rounds)
        continue; // beyond the cap
      rounds.emplace_back();
      busy.emplace_back(static_cast<std::size_t>(members), false);
    }
    rounds[r].push_back(i);
    busy[r][static_cast<std::size_t>(a)] = busy[r][static_cast<std::size_t>(b)] = true;
  }
  return rounds;
}

} // namespace cb
