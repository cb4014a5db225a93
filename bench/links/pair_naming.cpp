#include "links/pair_naming.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/stats.hpp"

namespace cb {

namespace {

// The upper of the two middle values for an even count: a member with as many healthy pairs as
// slow ones is taken at its healthy level, where their mean would sit between the two levels.
double upper_median(std::vector<double> values) {
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

} // namespace

double pair_reference(const PairRule& rule, const std::vector<MemberPairFigure>& figures,
                      int members) {
  if (figures.empty())
    return 0;
  if (rule.lower_is_better) {
    return std::min_element(
               figures.begin(), figures.end(),
               [](const MemberPairFigure& x, const MemberPairFigure& y) {
                 return x.value < y.value;
               })
        ->value;
  }
  std::vector<std::vector<double>> of(static_cast<std::size_t>(std::max(members, 0)));
  std::vector<double> all;
  for (const auto& f : figures) {
    of.at(static_cast<std::size_t>(f.a)).push_back(f.value);
    of.at(static_cast<std::size_t>(f.b)).push_back(f.value);
    all.push_back(f.value);
  }
  std::vector<double> member_median(of.size(), 0), typical;
  for (std::size_t m = 0; m < of.size(); ++m) {
    if (of[m].empty())
      continue;
    member_median[m] = upper_median(std::move(of[m]));
    typical.push_back(member_median[m]);
  }
  const double by_pairs = median(std::move(all));
  const double by_members = median(std::move(typical));
  if (!(by_members > by_pairs))
    return by_pairs;
  // The median pair is below the members' median: pulled down by slow members, or by a fabric
  // whose groups are faster inside than across (two leaf switches, the larger one's members
  // taking the fast level). Slow members are slow with each other as well; a group is fast
  // inside. Only slow members call for the members' level.
  const double low = rule.factor * by_members;
  std::size_t among_low = 0, slow_among_low = 0;
  for (const auto& f : figures) {
    if (member_median[static_cast<std::size_t>(f.a)] < low &&
        member_median[static_cast<std::size_t>(f.b)] < low) {
      ++among_low;
      slow_among_low += f.value < low ? 1 : 0;
    }
  }
  return among_low == 0 || 2 * slow_among_low > among_low ? by_members : by_pairs;
}

bool PairRule::suspect(double value, double ref) const {
  return lower_is_better ? value > factor * ref : value < factor * ref;
}

PairRule bandwidth_rule() {
  return {false, 0.93,
          "suspect under 0.93 x the typical pair of the tier (NVIDIA ClusterKit, Microsoft "
          "SuperBench bandwidth acceptance)"};
}

PairRule latency_rule() {
  return {true, 2.1,
          "suspect over 2.1 x the lowest pair of the tier (NVIDIA ClusterKit, Microsoft "
          "SuperBench latency acceptance)"};
}

bool PairNaming::outside(double value) const {
  if (!rule_.suspect(value, reference_))
    return false;
  if (fleet_sigma_ <= 0)
    return true;
  const double z = (value - fleet_median_) / fleet_sigma_;
  return rule_.lower_is_better ? z > kOutlierZ : z < -kOutlierZ;
}

PairNaming::PairNaming(int members, std::vector<MemberPairFigure> figures, PairRule rule)
    : members_(members), figures_(std::move(figures)), rule_(std::move(rule)),
      good_(static_cast<std::size_t>(std::max(members, 0)), false),
      retests_of_member_(static_cast<std::size_t>(std::max(members, 0))) {
  PairCounts counts(members); // before the pairs are checked: a negative fleet fails here
  for (const auto& f : figures_) {
    if (f.a < 0 || f.b < 0 || f.a >= members || f.b >= members || f.a == f.b)
      throw std::out_of_range("pair naming: pair of members outside the fleet");
  }
  reference_ = pair_reference(rule_, figures_, members);
  measure_spread();
  find_suspects(counts);
  find_better_members();
  const std::vector<int> good_members = find_good_members(counts);
  pack_end_retests(choose_end_partners(counts.suspect, good_members));
}

// A fleet of pairs whose own spread is wider than the rule's margin: identical links differ by
// more than the 7 % the fraction rule allows (congested rounds, a CPU-bound transport), so a
// pair must also stand out of that spread to be suspect: robust z beyond 3.5, the rule
// qualify's fleet checks use (harness/qualify/fleet.hpp). The spread is taken over the pairs
// between members most of whose pairs pass the fraction rule, so that one slow member (a third
// of the pairs of 6) does not widen the spread it is judged against.
void PairNaming::measure_spread() {
  std::vector<int> pairs(static_cast<std::size_t>(members_), 0), low(pairs);
  for (const auto& f : figures_) {
    const int out = rule_.suspect(f.value, reference_) ? 1 : 0;
    for (int m : {f.a, f.b}) {
      ++pairs[static_cast<std::size_t>(m)];
      low[static_cast<std::size_t>(m)] += out;
    }
  }
  auto passing = [&](int m) {
    return 2 * low[static_cast<std::size_t>(m)] <= pairs[static_cast<std::size_t>(m)];
  };
  std::vector<double> clean;
  for (const auto& f : figures_) {
    if (passing(f.a) && passing(f.b))
      clean.push_back(f.value);
  }
  if (clean.size() < 3)
    return;
  const double mid = median(clean);
  const double sigma = 1.4826 * median_absolute_deviation(clean);
  clean_median_ = mid;
  clean_sigma_ = sigma;
  if (mid > 0 && sigma / mid > kNoisyFleetSpread) {
    fleet_median_ = mid;
    fleet_sigma_ = sigma;
  }
}

void PairNaming::find_suspects(PairCounts& counts) {
  for (std::size_t i = 0; i < figures_.size(); ++i) {
    const auto& f = figures_[i];
    ++counts.pairs[static_cast<std::size_t>(f.a)];
    ++counts.pairs[static_cast<std::size_t>(f.b)];
    if (outside(f.value)) {
      suspects_.push_back(i);
      ++counts.suspect[static_cast<std::size_t>(f.a)];
      ++counts.suspect[static_cast<std::size_t>(f.b)];
    }
  }
}

// Better than the reference beyond the tolerance (bandwidth only: nothing is below the lowest),
// and beyond the clean pairs' own spread: at 1,024 nodes half a million pairs of 3 % noise hold
// thousands 7.5 % over the median. The members kept are the densest group of them, peeled
// (the member with the fewest better pairs inside first) until at least half of the pairs
// inside are better, and kept when 3 or more remain: noise scatters over the fleet, a slow
// majority leaves its healthy members better with one another. O((members + pairs) log members).
void PairNaming::find_better_members() {
  if (rule_.lower_is_better || !(reference_ > 0))
    return;
  std::vector<std::vector<int>> better_of(static_cast<std::size_t>(members_));
  std::size_t inside = 0;
  for (const auto& f : figures_) {
    const bool beyond = f.value * rule_.factor > reference_ &&
                        (clean_sigma_ <= 0 || (f.value - clean_median_) / clean_sigma_ > kOutlierZ);
    if (!beyond)
      continue;
    better_of[static_cast<std::size_t>(f.a)].push_back(f.b);
    better_of[static_cast<std::size_t>(f.b)].push_back(f.a);
    ++inside;
  }
  std::vector<std::size_t> degree(static_cast<std::size_t>(members_), 0);
  std::vector<bool> kept(static_cast<std::size_t>(members_), false);
  std::set<std::pair<std::size_t, int>> by_degree;
  std::size_t size = 0;
  for (int m = 0; m < members_; ++m) {
    const auto i = static_cast<std::size_t>(m);
    if (better_of[i].empty())
      continue;
    kept[i] = true;
    degree[i] = better_of[i].size();
    by_degree.emplace(degree[i], m);
    ++size;
  }
  while (size >= 3 && 4 * inside < size * (size - 1)) {
    const auto [d, m] = *by_degree.begin();
    by_degree.erase(by_degree.begin());
    kept[static_cast<std::size_t>(m)] = false;
    --size;
    inside -= d;
    for (int other : better_of[static_cast<std::size_t>(m)]) {
      const auto o = static_cast<std::size_t>(other);
      if (!kept[o])
        continue;
      by_degree.erase({degree[o], other});
      by_degree.emplace(--degree[o], other);
    }
  }
  if (size < 3)
    return;
  better_pairs_ = inside;
  for (int m = 0; m < members_; ++m) {
    if (kept[static_cast<std::size_t>(m)])
      better_members_.push_back(m);
  }
}

std::vector<int> PairNaming::find_good_members(const PairCounts& counts) {
  std::vector<int> good_members;
  for (int m = 0; m < members_; ++m) {
    const auto i = static_cast<std::size_t>(m);
    // A good member's suspect pairs are those it shares with bad ones: at most half of its pairs
    // while fewer than half of the fleet is bad.
    good_[i] = counts.pairs[i] > 0 && 2 * counts.suspect[i] <= counts.pairs[i];
    if (good_[i])
      good_members.push_back(m);
  }
  return good_members;
}

std::vector<std::vector<std::size_t>>
PairNaming::choose_end_partners(const std::vector<int>& suspect_of,
                                const std::vector<int>& good_members) {
  // The ends to retest, each once, in member order: those that are not good. A good end is never
  // named (member_slow), so its retests could only cost rounds: a transient slow pair between two
  // good members went through eight sub-rounds of them before its own retest cleared it.
  std::vector<bool> is_end(static_cast<std::size_t>(members_), false);
  for (std::size_t s : suspects_) {
    for (const int m : {figures_[s].a, figures_[s].b})
      is_end[static_cast<std::size_t>(m)] = !good_[static_cast<std::size_t>(m)];
  }
  // Partners are spread over the good members (starting at a different one for each end), so the
  // retests pack into few rounds instead of queueing on one partner.
  // A partner whose first-pass pair with the end passed is preferred: retesting a bad link's end
  // over that same link would only repeat it. A bad member has no such partner and takes any.
  std::set<MemberPair> suspect_set;
  for (std::size_t s : suspects_)
    suspect_set.emplace(std::min(figures_[s].a, figures_[s].b),
                        std::max(figures_[s].a, figures_[s].b));
  // The ends with the most suspect pairs first: the likeliest to be named get the first rounds
  // when the cap leaves some out.
  std::vector<int> ends;
  for (int m = 0; m < members_; ++m) {
    if (is_end[static_cast<std::size_t>(m)])
      ends.push_back(m);
  }
  std::stable_sort(ends.begin(), ends.end(), [&](int x, int y) {
    return suspect_of[static_cast<std::size_t>(x)] > suspect_of[static_cast<std::size_t>(y)];
  });
  std::vector<std::vector<std::size_t>> candidates_of(static_cast<std::size_t>(members_));
  std::size_t next = 0;
  for (int m : ends) {
    if (good_members.empty())
      break;
    auto& mine = candidates_of[static_cast<std::size_t>(m)];
    for (const bool allow_suspect : {false, true}) {
      for (std::size_t tried = 0; tried < good_members.size() && mine.size() < kPartners; ++tried) {
        const int partner = good_members[(next + tried) % good_members.size()];
        const MemberPair key{std::min(m, partner), std::max(m, partner)};
        const bool taken = std::any_of(mine.begin(), mine.end(), [&](std::size_t i) {
          return end_retests_[i].partner == partner;
        });
        if (partner == m || taken || (!allow_suspect && suspect_set.count(key)))
          continue;
        mine.push_back(end_retests_.size());
        end_retests_.push_back({m, partner});
        next = (next + tried + 1) % good_members.size();
      }
    }
  }
  return candidates_of;
}

// Packed into at most kMaxRetestRounds rounds, then kept in round order.
void PairNaming::pack_end_retests(const std::vector<std::vector<std::size_t>>& candidates_of) {
  std::vector<MemberPair> candidate_pairs;
  for (const auto& e : end_retests_)
    candidate_pairs.emplace_back(e.member, e.partner);
  auto rounds = pack_into_rounds(candidate_pairs, members_, kMaxRetestRounds);
  // An end is retested whole or not at all: one kept retest of two would name a member from a
  // single measurement, which member_slow() refuses to do.
  std::vector<std::size_t> placed_of(static_cast<std::size_t>(members_), 0);
  for (const auto& round : rounds) {
    for (std::size_t i : round)
      ++placed_of[static_cast<std::size_t>(end_retests_[i].member)];
  }
  auto partly_placed = [&](std::size_t i) {
    const auto m = static_cast<std::size_t>(end_retests_[i].member);
    return placed_of[m] != candidates_of[m].size();
  };
  for (auto& round : rounds)
    round.erase(std::remove_if(round.begin(), round.end(), partly_placed), round.end());
  rounds.erase(std::remove_if(rounds.begin(), rounds.end(),
                              [](const std::vector<std::size_t>& r) { return r.empty(); }),
               rounds.end());
  std::vector<EndRetest> kept;
  for (const auto& round : rounds) {
    end_rounds_.emplace_back();
    for (std::size_t i : round) {
      end_rounds_.back().push_back(kept.size());
      retests_of_member_[static_cast<std::size_t>(end_retests_[i].member)].push_back(kept.size());
      kept.push_back(end_retests_[i]);
    }
  }
  beyond_cap_.end_retests = end_retests_.size() - kept.size();
  end_retests_ = std::move(kept);
}

bool PairNaming::member_slow(int member) const {
  const auto& mine = retests_of_member_[static_cast<std::size_t>(member)];
  // A slow member makes most of its own pairs suspect: one that is good by its first pass and
  // slow only in its retests met noise, and its suspect pairs go to their own retest instead.
  if (!stage1_done_ || good_[static_cast<std::size_t>(member)])
    return false;
  return !mine.empty() && std::all_of(mine.begin(), mine.end(), [&](std::size_t i) {
    return static_cast<bool>(end_slow_[i]);
  });
}

bool PairNaming::member_named(int member) const {
  return member_slow(member) && group_of_.at(static_cast<std::size_t>(member)) < 0;
}

void PairNaming::find_groups() {
  groups_.clear(); // stage 1 recorded again starts afresh
  group_of_.assign(static_cast<std::size_t>(members_), -1);
  const auto at = [](int m) { return static_cast<std::size_t>(m); };
  // Within the plain tolerance of the reference: in a noisy fleet outside() also asks for a
  // robust-z outlier, and a slow pair that is no outlier is still no fast one.
  const auto fast = [&](double v) { return !rule_.suspect(v, reference_); };
  // Members that are not good (most of their pairs suspect), joined by first-pass pairs that are
  // fast, when the two ends share at least half of the fast partners the one with fewer has
  // (besides each other): members of one switch are fast with the same members, while one noisy
  // pair between two small switches joins ends that share none, and must not merge the switches.
  // Union-find; O(pairs) plus the shared partners of the fast pairs among members not good.
  std::vector<std::vector<int>> fast_partners(at(members_));
  for (const auto& f : figures_) {
    if (good_[at(f.a)] || good_[at(f.b)] || !fast(f.value))
      continue;
    fast_partners[at(f.a)].push_back(f.b);
    fast_partners[at(f.b)].push_back(f.a);
  }
  for (auto& p : fast_partners)
    std::sort(p.begin(), p.end());
  auto alike = [&](int a, int b) {
    const auto& pa = fast_partners[at(a)];
    const auto& pb = fast_partners[at(b)];
    std::size_t shared = 0;
    for (std::size_t i = 0, j = 0; i < pa.size() && j < pb.size();) {
      if (pa[i] < pb[j]) {
        ++i;
      } else if (pb[j] < pa[i]) {
        ++j;
      } else {
        ++shared;
        ++i;
        ++j;
      }
    }
    const std::size_t fewer = std::min(pa.size(), pb.size()) - 1; // each lists the other
    return 2 * shared >= fewer;
  };
  std::vector<int> parent(at(members_));
  for (int m = 0; m < members_; ++m)
    parent[at(m)] = m;
  auto root = [&](int m) {
    while (parent[at(m)] != m) {
      parent[at(m)] = parent[at(parent[at(m)])];
      m = parent[at(m)];
    }
    return m;
  };
  std::vector<bool> joined(at(members_), false);
  for (int a = 0; a < members_; ++a) {
    for (int b : fast_partners[at(a)]) {
      if (b <= a || !alike(a, b))
        continue;
      parent[at(root(a))] = root(b);
      joined[at(a)] = joined[at(b)] = true;
    }
  }
  // A member stays in its group when its own median pair inside it is fast: a slow member that
  // one noisy pair joined is slow with the rest of the group.
  std::vector<std::vector<double>> own(at(members_));
  for (const auto& f : figures_) {
    if (joined[at(f.a)] && joined[at(f.b)] && root(f.a) == root(f.b)) {
      own[at(f.a)].push_back(f.value);
      own[at(f.b)].push_back(f.value);
    }
  }
  std::vector<int> label(at(members_), -1);
  std::map<int, std::size_t> size_of;
  for (int m = 0; m < members_; ++m) {
    if (joined[at(m)] && fast(median(std::move(own[at(m)])))) {
      label[at(m)] = root(m);
      ++size_of[label[at(m)]];
    }
  }
  // A group stands when it has two members or more, its median pair inside is clearly fast (past
  // the middle of the tolerance: slow members just under it whom noise lifted over it are not)
  // and its median pair across is suspect: members of one switch are fast with one another and
  // slow with the rest.
  // The middle between the typical pair and the tolerance's edge: for bandwidth the reference is
  // the typical pair (0.965 x it); for latency it is the lowest pair, an extreme that falls as the
  // fleet grows, so the typical pair is the clean pairs' median.
  const double edge = rule_.factor * reference_;
  const double typical = rule_.lower_is_better && clean_median_ > 0 ? clean_median_ : reference_;
  const double middle = rule_.lower_is_better ? std::min((typical + edge) / 2, edge)
                                              : std::max((typical + edge) / 2, edge);
  const auto clearly_fast = [&](double v) {
    return rule_.lower_is_better ? v <= middle : v >= middle;
  };
  std::map<int, std::vector<double>> inside, across;
  for (const auto& f : figures_) {
    const int la = label[at(f.a)], lb = label[at(f.b)];
    if (la >= 0 && la == lb) {
      inside[la].push_back(f.value);
      continue;
    }
    if (la >= 0)
      across[la].push_back(f.value);
    if (lb >= 0)
      across[lb].push_back(f.value);
  }
  std::set<int> standing;
  for (const auto& [l, size] : size_of) {
    if (size >= 2 && !inside[l].empty() && clearly_fast(median(std::move(inside[l]))) &&
        !across[l].empty() && !fast(median(std::move(across[l]))))
      standing.insert(l);
  }
  // Numbered by their first member, as the verdicts list them.
  std::map<int, std::size_t> group_of_label;
  for (int m = 0; m < members_; ++m) {
    if (!standing.count(label[at(m)]))
      continue;
    const auto [it, added] = group_of_label.emplace(label[at(m)], groups_.size());
    if (added)
      groups_.emplace_back();
    groups_[it->second].push_back(m);
    group_of_[at(m)] = static_cast<int>(it->second);
  }
}

void PairNaming::record_end_retests(const std::vector<double>& values) {
  if (values.size() != end_retests_.size())
    throw std::invalid_argument("pair naming: one figure per end retest");
  end_values_ = values;
  end_slow_.clear();
  for (double v : values)
    end_slow_.push_back(outside(v));
  stage1_done_ = true;
  stage2_done_ = false;
  pair_values_.clear();
  find_groups();
  std::vector<std::size_t> candidates; // into figures_
  for (std::size_t s : suspects_) {
    const auto& f = figures_[s];
    const int ga = group_of_[static_cast<std::size_t>(f.a)];
    const int gb = group_of_[static_cast<std::size_t>(f.b)];
    if (ga >= 0 || gb >= 0) {
      // Across a split it is explained by it; inside a group it is retested as a pair (its ends'
      // retests were across the split): a cable between two of its members, or noise.
      if (ga == gb)
        candidates.push_back(s);
      continue;
    }
    // An end that is not good and went without retests (no good partner, or beyond the cap)
    // leaves the pair unresolved; a good end needs none.
    const auto unretested = [&](int m) {
      return !good_[static_cast<std::size_t>(m)] &&
             retests_of_member_[static_cast<std::size_t>(m)].empty();
    };
    if (unretested(f.a) || unretested(f.b))
      continue;
    if (!member_slow(f.a) && !member_slow(f.b))
      candidates.push_back(s);
  }
  // The worst pairs first.
  std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t x, std::size_t y) {
    return rule_.lower_is_better ? figures_[x].value > figures_[y].value
                                 : figures_[x].value < figures_[y].value;
  });
  std::vector<MemberPair> pairs;
  for (std::size_t s : candidates)
    pairs.emplace_back(std::min(figures_[s].a, figures_[s].b),
                       std::max(figures_[s].a, figures_[s].b));
  pair_retests_.clear();
  pair_rounds_.clear();
  pair_alone_ = pairs.size() <= kMaxAloneRetests;
  if (pair_alone_) {
    for (std::size_t i = 0; i < pairs.size(); ++i)
      pair_rounds_.push_back({i});
    pair_retests_ = std::move(pairs);
  } else {
    for (const auto& round : pack_into_rounds(pairs, members_, kMaxRetestRounds)) {
      pair_rounds_.emplace_back();
      for (std::size_t i : round) {
        pair_rounds_.back().push_back(pair_retests_.size());
        pair_retests_.push_back(pairs[i]);
      }
    }
  }
  beyond_cap_.pair_retests = candidates.size() - pair_retests_.size();
}

void PairNaming::record_pair_retests(const std::vector<double>& values) {
  if (!stage1_done_)
    throw std::logic_error("pair naming: the ends are retested before the pairs");
  if (values.size() != pair_retests_.size())
    throw std::invalid_argument("pair naming: one figure per pair retest");
  pair_values_ = values;
  stage2_done_ = true;
}

PairVerdicts PairNaming::verdicts() const {
  if (!stage1_done_ || !stage2_done_)
    throw std::logic_error("pair naming: verdicts before both retest stages");
  PairVerdicts out;
  for (int m = 0; m < members_; ++m) {
    if (member_named(m))
      out.nodes.push_back(m);
  }
  out.groups = groups_;
  auto group = [&](int m) { return group_of_[static_cast<std::size_t>(m)]; };
  std::map<MemberPair, double> retested;
  for (std::size_t i = 0; i < pair_retests_.size(); ++i)
    retested[pair_retests_[i]] = pair_values_[i];
  for (std::size_t s : suspects_) {
    const auto& f = figures_[s];
    const MemberPair pair{std::min(f.a, f.b), std::max(f.a, f.b)};
    if (member_named(f.a) || member_named(f.b))
      continue; // explained by a named member
    if ((group(f.a) >= 0 || group(f.b) >= 0) && group(f.a) != group(f.b)) {
      ++out.split_pairs; // across a split: explained by it
      continue;
    }
    const auto it = retested.find(pair);
    if (it == retested.end()) {
      out.unresolved.push_back(pair);
      continue;
    }
    (outside(it->second) ? out.links : out.cleared).push_back(pair);
  }
  return out;
}

} // namespace cb
