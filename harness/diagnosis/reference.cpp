#include "diagnosis/reference.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace cb {

double median_of(std::vector<double>& values) {
  if (values.empty())
    return 0;
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

double upper_normal_quantile(double p) {
  double low = 0, high = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (low + high);
    if (0.5 * std::erfc(mid / std::sqrt(2.0)) > p)
      low = mid;
    else
      high = mid;
  }
  return 0.5 * (low + high);
}

namespace {

// Median over units of each unit's median value; units with no value are skipped.
double median_of_medians(std::unordered_map<int, std::vector<double>>& by_unit) {
  std::vector<double> medians;
  medians.reserve(by_unit.size());
  for (auto& [unit, values] : by_unit)
    medians.push_back(median_of(values));
  return median_of(medians);
}

// The crossing figure of the fastest pair of leaves: with three or four leaves none can outvote
// a slow one, but a pair of healthy leaves still shows what the fabric carries (its
// oversubscription), which a slow uplink's pairs cannot beat. Never above the inside figure: a
// crossing is no faster than a leaf. 0 when no pair has kMinPairFigures figures.
constexpr std::size_t kMinPairFigures = 8;

double fastest_pair(std::unordered_map<long long, std::vector<double>>& by_pair, double inside) {
  double best = 0;
  for (auto& [pair, values] : by_pair) {
    if (values.size() >= kMinPairFigures)
      best = std::max(best, median_of(values));
  }
  return inside > 0 && best > inside ? inside : best;
}

// A leaf whose crossing figures' median is below this share of the typical figure is left out
// of the typical figure taken again (the tolerance's default: a deviation inside it is noise).
constexpr double kSlowLeafRatio = 0.9;

// The typical crossing figure of each round: the median over leaves (but those in `left_out`,
// and the figures they take part in) of each leaf's median crossing figure, or `fallback` for a
// round with fewer than kVouchingLeaves leaves crossing (or every round when `fallback_only`).
std::vector<double> round_typicals(const std::vector<Observation>& observations,
                                   const std::vector<int>& leaf_of_node,
                                   const std::vector<char>& left_out, double fallback,
                                   bool fallback_only) {
  auto out = [&](int leaf) {
    return static_cast<std::size_t>(leaf) < left_out.size() &&
           left_out[static_cast<std::size_t>(leaf)];
  };
  std::vector<double> round_typical;
  std::size_t begin = 0;
  while (begin < observations.size()) {
    const std::uint32_t round = observations[begin].round;
    std::size_t end = begin;
    std::unordered_map<int, std::vector<double>> by_leaf;
    for (; end < observations.size() && observations[end].round == round; ++end) {
      const auto& o = observations[end];
      const int a = leaf_of_node[o.src], b = leaf_of_node[o.dst];
      if (a != b && !out(a) && !out(b)) {
        by_leaf[a].push_back(o.value);
        by_leaf[b].push_back(o.value);
      }
    }
    if (round_typical.size() <= round)
      round_typical.resize(round + 1, fallback);
    if (!fallback_only && by_leaf.size() >= kVouchingLeaves)
      round_typical[round] = median_of_medians(by_leaf);
    begin = end;
  }
  return round_typical;
}

} // namespace

Normalised normalise(const std::vector<Observation>& observations,
                     const std::vector<int>& leaf_of_node) {
  auto crossing = [&](const Observation& o) { return leaf_of_node[o.src] != leaf_of_node[o.dst]; };
  // Inside leaves: per node, over every round.
  std::unordered_map<int, std::vector<double>> inside_by_node, across_by_leaf;
  std::unordered_map<long long, std::vector<double>> across_by_pair;
  auto pair_key = [&](const Observation& o) {
    const long long a = leaf_of_node[o.src], b = leaf_of_node[o.dst];
    return std::min(a, b) * (1LL << 32) + std::max(a, b);
  };
  for (const auto& o : observations) {
    if (crossing(o)) {
      across_by_leaf[leaf_of_node[o.src]].push_back(o.value);
      across_by_leaf[leaf_of_node[o.dst]].push_back(o.value);
      across_by_pair[pair_key(o)].push_back(o.value);
    } else {
      inside_by_node[static_cast<int>(o.src)].push_back(o.value);
      inside_by_node[static_cast<int>(o.dst)].push_back(o.value);
    }
  }
  const double inside_typical = median_of_medians(inside_by_node);
  // Fewer than kVouchingLeaves leaves cannot outvote a slow one: the fabric is taken as
  // non-blocking and crossing figures are judged against the inside ones.
  const bool few_leaves = across_by_leaf.size() < kVouchingLeaves && inside_typical > 0;
  double across_typical = few_leaves ? inside_typical : median_of_medians(across_by_leaf);
  // Three or four leaves: judged against the fastest pair of leaves, so an oversubscribed
  // fabric's shared uplinks are not taken for slow ones (two leaves are one pair: no other to
  // compare with).
  if (few_leaves && across_by_leaf.size() >= 3) {
    if (const double fastest = fastest_pair(across_by_pair, inside_typical); fastest > 0)
      across_typical = fastest;
  }

  // Across leaves: per round (observations are appended round by round).
  std::vector<double> round_typical =
      round_typicals(observations, leaf_of_node, {}, across_typical, few_leaves);
  if (!few_leaves) {
    // Healthy leaves meet slow ones, which pulls their medians and so the typical figure down
    // (three slow uplinks of eight hid one): leaves clearly slow against the first figure are
    // left out, with every figure they take part in, and the typical figures taken again.
    std::unordered_map<int, std::vector<double>> ratio_by_leaf;
    for (const auto& o : observations) {
      if (!crossing(o) || round_typical[o.round] <= 0)
        continue;
      ratio_by_leaf[leaf_of_node[o.src]].push_back(o.value / round_typical[o.round]);
      ratio_by_leaf[leaf_of_node[o.dst]].push_back(o.value / round_typical[o.round]);
    }
    std::vector<char> slow_leaf(
        leaf_of_node.empty() ? 0
                             : static_cast<std::size_t>(
                                   1 + *std::max_element(leaf_of_node.begin(), leaf_of_node.end())),
        0);
    std::size_t slow = 0;
    for (auto& [leaf, ratios] : ratio_by_leaf) {
      if (median_of(ratios) < kSlowLeafRatio) {
        slow_leaf[static_cast<std::size_t>(leaf)] = 1;
        ++slow;
      }
    }
    std::unordered_map<int, std::vector<double>> kept_by_leaf;
    for (const auto& o : observations) {
      const int a = leaf_of_node[o.src], b = leaf_of_node[o.dst];
      if (a != b && !slow_leaf[static_cast<std::size_t>(a)] &&
          !slow_leaf[static_cast<std::size_t>(b)]) {
        kept_by_leaf[a].push_back(o.value);
        kept_by_leaf[b].push_back(o.value);
      }
    }
    if (slow > 0 && kept_by_leaf.size() >= kVouchingLeaves) {
      round_typical = round_typicals(observations, leaf_of_node, slow_leaf,
                                     median_of_medians(kept_by_leaf), false);
    }
  }

  Normalised out;
  out.log_ratio.resize(observations.size(), 0.0f);
  std::vector<double> fast_side;
  for (std::size_t i = 0; i < observations.size(); ++i) {
    const auto& o = observations[i];
    const double typical = crossing(o) ? round_typical[o.round] : inside_typical;
    if (typical > 0 && o.value > 0)
      out.log_ratio[i] = static_cast<float>(std::log(o.value / typical));
    if (out.log_ratio[i] > 0)
      fast_side.push_back(out.log_ratio[i]);
  }
  out.sigma = std::max(kNoiseFloor, median_of(fast_side) / 0.6745);
  return out;
}

} // namespace cb

namespace cb {

NormalisedSources normalise_by_source(const std::vector<Observation>& observations,
                                      const std::vector<int>& leaf_of_node, std::size_t sources) {
  NormalisedSources out;
  out.sigma_by_source.assign(std::max<std::size_t>(sources, 1), kNoiseFloor);
  const bool one_source = std::all_of(observations.begin(), observations.end(),
                                      [](const Observation& o) { return o.source == 0; });
  if (one_source) {
    Normalised n = normalise(observations, leaf_of_node);
    out.log_ratio = std::move(n.log_ratio);
    out.sigma_by_source[0] = n.sigma;
    return out;
  }
  out.log_ratio.assign(observations.size(), 0.0f);
  std::vector<std::vector<std::uint32_t>> members(out.sigma_by_source.size());
  for (std::size_t i = 0; i < observations.size(); ++i) {
    const std::size_t s = observations[i].source;
    if (s < members.size())
      members[s].push_back(static_cast<std::uint32_t>(i));
  }
  std::vector<Observation> subset;
  for (std::size_t s = 0; s < members.size(); ++s) {
    subset.clear();
    for (std::uint32_t i : members[s])
      subset.push_back(observations[i]);
    if (subset.empty())
      continue;
    const Normalised n = normalise(subset, leaf_of_node);
    for (std::size_t k = 0; k < members[s].size(); ++k)
      out.log_ratio[members[s][k]] = n.log_ratio[k];
    out.sigma_by_source[s] = n.sigma;
  }
  return out;
}

} // namespace cb
