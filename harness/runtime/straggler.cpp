#include "runtime/straggler.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/stats.hpp"
#include "results/record.hpp"

namespace cb {

double chance_of_share(std::size_t hits, std::size_t samples, std::size_t ranks) {
  if (ranks < 2 || hits == 0)
    return 1.0;
  if (hits > samples)
    return 0.0;
  // The binomial upper tail summed in logs: lgamma keeps C(n, i) finite for any sample count.
  const double p = 1.0 / static_cast<double>(ranks);
  const double n = static_cast<double>(samples);
  double tail = 0;
  for (std::size_t i = hits; i <= samples; ++i) {
    const double k = static_cast<double>(i);
    const double log_term = std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1) +
                            k * std::log(p) + (n - k) * std::log1p(-p);
    tail += std::exp(log_term);
  }
  return std::min(1.0, static_cast<double>(ranks) * tail);
}

std::optional<StragglerFinding> find_straggler(const std::vector<RankTiming>& ranks,
                                               std::size_t samples, int batch) {
  if (ranks.size() < 2 || samples < kStragglerMinSamples)
    return std::nullopt;
  // The rank most often the shortest; on a tie the one with the lower median.
  std::size_t best = 0;
  for (std::size_t i = 1; i < ranks.size(); ++i) {
    const RankTiming& a = ranks[i];
    const RankTiming& b = ranks[best];
    if (a.shortest_share > b.shortest_share ||
        (a.shortest_share == b.shortest_share && a.median_s < b.median_s))
      best = i;
  }
  StragglerFinding f;
  f.index = best;
  f.shortest_share = ranks[best].shortest_share;
  f.median_s = ranks[best].median_s;
  if (!(f.shortest_share > kStragglerMinShare))
    return std::nullopt;
  const auto hits = static_cast<std::size_t>(std::llround(f.shortest_share * samples));
  f.chance = chance_of_share(hits, samples, ranks.size());
  if (f.chance > kStragglerChance)
    return std::nullopt;
  std::vector<double> others;
  others.reserve(ranks.size() - 1);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i != best)
      others.push_back(ranks[i].median_s);
  }
  f.others_median_s = median(others);
  if (!(f.others_median_s > 0) || f.median_s > (1 - kStragglerGap) * f.others_median_s)
    return std::nullopt;
  if ((f.others_median_s - f.median_s) * batch < kStragglerMinWait_s)
    return std::nullopt;
  return f;
}

std::vector<std::size_t> ranks_to_keep(const std::vector<RankTiming>& ranks,
                                       const std::optional<StragglerFinding>& straggler) {
  std::vector<std::size_t> keep;
  if (ranks.empty())
    return keep;
  std::vector<std::size_t> by_median(ranks.size());
  std::iota(by_median.begin(), by_median.end(), 0);
  std::stable_sort(by_median.begin(), by_median.end(), [&](std::size_t a, std::size_t b) {
    return ranks[a].median_s < ranks[b].median_s;
  });
  const std::size_t candidates[] = {straggler ? straggler->index : by_median.front(),
                                    by_median.back(), by_median[(by_median.size() - 1) / 2]};
  for (std::size_t i : candidates) {
    if (keep.size() < kRankSamplesRanks && std::find(keep.begin(), keep.end(), i) == keep.end())
      keep.push_back(i);
  }
  return keep;
}

} // namespace cb
