#include "verdicts/change_point.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/stats.hpp"

namespace cb {
namespace {

struct Split {
  std::size_t at = 0; // first index of the after segment
  double score = 0;
};

// The noise of values[from, to) from successive differences: median |y(i+1) - y(i)| / (0.6745
// sqrt 2), the MAD of the differences scaled to a standard deviation (a difference-based
// estimator, Hall, Kay and Titterington, Biometrika 1990). A level shift moves one difference
// only, so the noise is not inflated by the changes being looked for, as a pooled variance of a
// series with two changes is (it would hide both).
double difference_noise(const std::vector<double>& values, std::size_t from, std::size_t to) {
  std::vector<double> differences;
  for (std::size_t i = from + 1; i < to; ++i)
    differences.push_back(std::fabs(values[i] - values[i - 1]));
  return median(differences) / (0.6745 * std::sqrt(2.0));
}

// The best split of values[from, to) by the two-sample t statistic with the difference-based
// noise, with prefix sums so a series of n runs costs O(n log n) per scoring.
Split best_split(const std::vector<double>& values, std::size_t from, std::size_t to) {
  const std::size_t n = to - from;
  std::vector<double> sum(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    sum[i + 1] = sum[i] + values[from + i];
  const double noise = difference_noise(values, from, to);
  Split best;
  for (std::size_t k = kMinSegment; k + kMinSegment <= n; ++k) {
    const double n1 = static_cast<double>(k), n2 = static_cast<double>(n - k);
    const double difference = std::fabs((sum[n] - sum[k]) / n2 - sum[k] / n1);
    // Noise-free figures (equal runs, as a copied file gives): any difference is infinitely
    // clear, none is no change at all.
    const double score = noise > 1e-12        ? difference / (noise * std::sqrt(1 / n1 + 1 / n2))
                         : difference > 1e-12 ? HUGE_VAL
                                              : 0.0;
    if (score > best.score)
      best = {from + k, score};
  }
  return best;
}

void search(const std::vector<double>& logs, std::size_t from, std::size_t to,
            const ChangePointOptions& options, std::mt19937_64& rng,
            std::vector<ChangePoint>& found) {
  if (to - from < 2 * kMinSegment)
    return;
  const Split split = best_split(logs, from, to);
  if (!(split.score > 0))
    return;
  std::vector<double> shuffled(logs.begin() + static_cast<std::ptrdiff_t>(from),
                               logs.begin() + static_cast<std::ptrdiff_t>(to));
  int as_high = 0;
  for (int i = 0; i < options.permutations; ++i) {
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    as_high += best_split(shuffled, 0, shuffled.size()).score >= split.score;
  }
  const double p = (1.0 + as_high) / (1.0 + options.permutations);
  const std::vector<double> before(logs.begin() + static_cast<std::ptrdiff_t>(from),
                                   logs.begin() + static_cast<std::ptrdiff_t>(split.at));
  const std::vector<double> after(logs.begin() + static_cast<std::ptrdiff_t>(split.at),
                                  logs.begin() + static_cast<std::ptrdiff_t>(to));
  const double before_median = std::exp(median(before)), after_median = std::exp(median(after));
  const double change = after_median / before_median - 1;
  const double size = std::max(change, before_median / after_median - 1);
  if (p >= options.alpha || size <= options.threshold)
    return;
  search(logs, from, split.at, options, rng, found);
  found.push_back({split.at, before_median, after_median, change, p});
  search(logs, split.at, to, options, rng, found);
}

} // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& figures,
                                            const ChangePointOptions& options) {
  std::vector<double> logs;
  logs.reserve(figures.size());
  for (double v : figures)
    logs.push_back(std::log(v));
  std::mt19937_64 rng(options.seed);
  std::vector<ChangePoint> found;
  search(logs, 0, logs.size(), options, rng, found);
  // Each change stated between its neighbours: the segments either side run to the next change
  // point, not over it (the first split of a series with two changes mixes two levels).
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::size_t from = i == 0 ? 0 : found[i - 1].index;
    const std::size_t to = i + 1 == found.size() ? logs.size() : found[i + 1].index;
    const auto at = [&](std::size_t k) { return logs.begin() + static_cast<std::ptrdiff_t>(k); };
    found[i].before = std::exp(median(std::vector<double>(at(from), at(found[i].index))));
    found[i].after = std::exp(median(std::vector<double>(at(found[i].index), at(to))));
    found[i].change = found[i].after / found[i].before - 1;
  }
  return found;
}

} // namespace cb
