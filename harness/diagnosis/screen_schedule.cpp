#include <algorithm>
#include <cmath>
#include <string>

#include "diagnosis/reference.hpp"
#include "diagnosis/schedules.hpp"

namespace cb {

std::vector<int> sqrt_groups(int nodes) {
  const int size = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(nodes)))));
  std::vector<int> group(static_cast<std::size_t>(nodes));
  for (int i = 0; i < nodes; ++i)
    group[static_cast<std::size_t>(i)] = i / size;
  return group;
}

namespace {

// Confirmation and bisection rounds are bounded, as the second pass's are: a fleet whose every
// node is suspect is not screened one node at a time.
constexpr int kMaxConfirmRounds = 16;
constexpr int kMaxBisectionLevels = 16;

struct Hop {
  int src = 0, dst = 0;
  std::size_t first = 0; // its first figure in the observations
};

class Screen {
public:
  Screen(PairOracle& oracle, const std::vector<int>& group_of_node, const ScreenSettings& s)
      : oracle_(oracle), group_of_node_(group_of_node), settings_(s) {
    for (int node = 0; node < oracle.nodes(); ++node) {
      const auto g = static_cast<std::size_t>(group_of_node[static_cast<std::size_t>(node)]);
      if (groups_.size() <= g)
        groups_.resize(g + 1);
      groups_[g].push_back(node);
    }
    groups_.erase(
        std::remove_if(groups_.begin(), groups_.end(), [](const auto& g) { return g.empty(); }),
        groups_.end());
    group_index_.resize(static_cast<std::size_t>(oracle.nodes()));
    for (std::size_t g = 0; g < groups_.size(); ++g)
      for (int node : groups_[g])
        group_index_[static_cast<std::size_t>(node)] = g;
  }

  Measurements run() {
    inside_stage();
    across_stage();
    std::vector<char> suspect = inside_suspects();
    std::vector<char> good(suspect.size());
    for (std::size_t i = 0; i < suspect.size(); ++i)
      good[i] = !suspect[i];
    std::vector<int> to_confirm;
    for (const auto& members : groups_) {
      std::size_t suspects = 0;
      for (int node : members)
        suspects += suspect[static_cast<std::size_t>(node)] ? 1 : 0;
      if (members.size() >= 2 && suspects * 2 > members.size()) {
        bisection_.push_back(members);
      } else {
        for (int node : members)
          if (suspect[static_cast<std::size_t>(node)])
            to_confirm.push_back(node);
      }
    }
    bisect(good, to_confirm);
    confirm(good, to_confirm);
    return std::move(m_);
  }

private:
  std::vector<Hop> measure(const std::vector<Flow>& flows, long long tests) {
    std::vector<Hop> hops;
    const std::size_t first = m_.observations.size();
    const auto rails = static_cast<std::size_t>(oracle_.rails());
    for (std::size_t f = 0; f < flows.size(); ++f)
      hops.push_back({flows[f].src, flows[f].dst, first + f * rails});
    measure_round(oracle_, flows, tests, m_);
    return hops;
  }

  static void ring(const std::vector<int>& members, int shift, std::vector<Flow>& flows) {
    const int size = static_cast<int>(members.size());
    if (size < 2 || shift % size == 0)
      return;
    for (int i = 0; i < size; ++i) {
      flows.push_back({members[static_cast<std::size_t>(i)],
                       members[static_cast<std::size_t>((i + shift) % size)]});
    }
  }

  void inside_stage() {
    for (int shift = 1; shift <= settings_.inside_partners; ++shift) {
      std::vector<Flow> flows;
      long long tests = 0;
      for (const auto& members : groups_) {
        const std::size_t before = flows.size();
        ring(members, shift, flows);
        tests += flows.size() > before ? 1 : 0;
      }
      if (flows.empty())
        break;
      auto hops = measure(flows, tests);
      inside_hops_.insert(inside_hops_.end(), hops.begin(), hops.end());
    }
  }

  void across_stage() {
    const int count = static_cast<int>(groups_.size());
    for (int t = 1; t <= std::min(settings_.across_partners, count - 1); ++t) {
      std::vector<Flow> flows;
      for (int g = 0; g < count; ++g) {
        const auto& from = groups_[static_cast<std::size_t>(g)];
        const auto& to = groups_[static_cast<std::size_t>((g + t) % count)];
        const std::size_t pairs = std::min(from.size(), to.size());
        for (std::size_t i = 0; i < pairs; ++i)
          flows.push_back({from[i], to[(i + static_cast<std::size_t>(t)) % to.size()]});
      }
      auto hops = measure(flows, count);
      // A node alone in its group has no figure inside: its crossing figures make it a suspect.
      for (const auto& h : hops) {
        if (group_size(h.src) == 1 || group_size(h.dst) == 1)
          inside_hops_.push_back(h);
      }
    }
  }

  std::size_t group_size(int node) const {
    return groups_[group_index_[static_cast<std::size_t>(node)]].size();
  }

  // Normalises everything measured so far; returns the cut below which a figure makes its ends
  // suspect: beyond the tolerance and four standard deviations. At three, 5 % noise made one
  // node in six a suspect through the slowest of its hops' rails (8,192 nodes: 18 rounds for a
  // healthy fleet); at four, one in a hundred, and a rail at 0.8 is still slow on most figures.
  double judge() {
    normal_ = normalise(m_.observations, group_of_node_);
    return std::max(-std::log(settings_.tolerance), 4 * normal_.sigma);
  }

  bool slow(const Hop& hop, double cut) const {
    for (int r = 0; r < oracle_.rails(); ++r) {
      if (normal_.log_ratio[hop.first + static_cast<std::size_t>(r)] < -cut)
        return true;
    }
    return false;
  }

  std::vector<char> inside_suspects() {
    std::vector<char> suspect(static_cast<std::size_t>(oracle_.nodes()), 0);
    const double cut = judge();
    for (const auto& hop : inside_hops_) {
      if (slow(hop, cut)) {
        suspect[static_cast<std::size_t>(hop.src)] = 1;
        suspect[static_cast<std::size_t>(hop.dst)] = 1;
      }
    }
    return suspect;
  }

  // Adaptive group testing over the groups with no known-good majority.
  void bisect(std::vector<char>& good, std::vector<int>& to_confirm) {
    std::vector<std::vector<int>> sets = std::move(bisection_);
    for (int level = 0; level < kMaxBisectionLevels && !sets.empty(); ++level) {
      std::vector<Flow> flows, probe;
      std::vector<std::vector<int>> halves;
      std::vector<std::pair<std::size_t, std::size_t>> hop_range; // per half
      std::size_t half_tests = 0;
      for (const auto& set : sets) {
        const auto middle = set.begin() + static_cast<std::ptrdiff_t>(set.size() / 2);
        halves.emplace_back(set.begin(), middle);
        halves.emplace_back(middle, set.end());
        for (std::size_t h = halves.size() - 2; h < halves.size(); ++h) {
          const std::size_t before = flows.size();
          ring(halves[h], 1, flows);
          hop_range.emplace_back(before, flows.size());
          half_tests += flows.size() > before ? 1 : 0;
        }
        const auto& a = halves[halves.size() - 2];
        const auto& b = halves.back();
        for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
          probe.push_back({a[i], b[i]});
          probe.push_back({b[i], a[i]});
        }
      }
      const std::vector<Hop> hops = measure(flows, static_cast<long long>(half_tests));
      measure(probe, static_cast<long long>(sets.size()));
      const double cut = judge();
      std::vector<std::vector<int>> next;
      for (std::size_t h = 0; h < halves.size(); ++h) {
        bool passed = halves[h].size() >= 2;
        for (std::size_t k = hop_range[h].first; k < hop_range[h].second && passed; ++k)
          passed = !slow(hops[k], cut);
        if (passed) {
          for (int node : halves[h])
            good[static_cast<std::size_t>(node)] = 1;
        } else if (halves[h].size() > 2) {
          next.push_back(halves[h]);
        } else {
          to_confirm.insert(to_confirm.end(), halves[h].begin(), halves[h].end());
        }
      }
      sets = std::move(next);
    }
    for (const auto& set : sets)
      to_confirm.insert(to_confirm.end(), set.begin(), set.end());
  }

  // Each suspect against known-good partners, both ways: its own group's first, else any. The
  // k-th suspect of a group takes the group's good nodes from the (k x partners)-th on, so the
  // suspects of one group meet different partners and their confirmations share rounds (the
  // ring neighbours of a slow node all taking the next good node would take a round each).
  void confirm(const std::vector<char>& good, const std::vector<int>& suspects) {
    std::vector<int> anywhere;
    for (int node = 0; node < oracle_.nodes(); ++node)
      if (good[static_cast<std::size_t>(node)])
        anywhere.push_back(node);
    const auto wanted = static_cast<std::size_t>(settings_.confirm_partners);
    std::vector<std::vector<int>> good_in_group(groups_.size());
    std::vector<std::size_t> taken(groups_.size(), 0);
    std::vector<std::size_t> group_index(static_cast<std::size_t>(oracle_.nodes()));
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      for (int node : groups_[g]) {
        group_index[static_cast<std::size_t>(node)] = g;
        if (good[static_cast<std::size_t>(node)])
          good_in_group[g].push_back(node);
      }
    }
    std::vector<std::pair<int, int>> tasks;
    for (int x : suspects) {
      const std::size_t g = group_index[static_cast<std::size_t>(x)];
      const auto& pool = good_in_group[g];
      std::vector<int> partners;
      for (std::size_t k = 0; k < pool.size() && partners.size() < wanted; ++k)
        partners.push_back(pool[(taken[g] + k) % pool.size()]);
      taken[g] += wanted;
      for (std::size_t k = 0; partners.size() < wanted && k < anywhere.size(); ++k) {
        const int p = anywhere[(static_cast<std::size_t>(x) * 7919 + k) % anywhere.size()];
        if (p != x && std::find(partners.begin(), partners.end(), p) == partners.end())
          partners.push_back(p);
      }
      for (int p : partners)
        tasks.emplace_back(x, p);
    }
    int rounds = 0;
    std::vector<char> busy(static_cast<std::size_t>(oracle_.nodes()), 0);
    while (!tasks.empty() && rounds < kMaxConfirmRounds) {
      std::vector<Flow> flows;
      std::vector<std::pair<int, int>> later;
      std::vector<int> used;
      for (const auto& [x, p] : tasks) {
        if (busy[static_cast<std::size_t>(x)] || busy[static_cast<std::size_t>(p)]) {
          later.emplace_back(x, p);
          continue;
        }
        busy[static_cast<std::size_t>(x)] = busy[static_cast<std::size_t>(p)] = 1;
        used.push_back(x);
        used.push_back(p);
        flows.push_back({x, p});
        flows.push_back({p, x});
      }
      measure(flows, static_cast<long long>(flows.size() / 2));
      for (int node : used)
        busy[static_cast<std::size_t>(node)] = 0;
      tasks = std::move(later);
      ++rounds;
    }
    if (!tasks.empty()) {
      m_.notes.push_back(std::to_string(tasks.size()) + " confirmations beyond the cap of " +
                         std::to_string(kMaxConfirmRounds) + " rounds were not measured");
    }
  }

  PairOracle& oracle_;
  const std::vector<int>& group_of_node_;
  ScreenSettings settings_;
  std::vector<std::vector<int>> groups_;
  std::vector<std::size_t> group_index_; // per node: its group in groups_
  std::vector<std::vector<int>> bisection_;
  std::vector<Hop> inside_hops_;
  Normalised normal_;
  Measurements m_;
};

} // namespace

Measurements run_screen(PairOracle& oracle, const std::vector<int>& group_of_node,
                        const ScreenSettings& settings) {
  return Screen(oracle, group_of_node, settings).run();
}

} // namespace cb
