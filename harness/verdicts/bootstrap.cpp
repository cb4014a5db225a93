#include "verdicts/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "core/stats.hpp"
#include "verdicts/resampled_median.hpp"

namespace cb {

RatioInterval bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                                     const BootstrapOptions& options) {
  if (a.empty() || b.empty())
    throw std::invalid_argument("bootstrap of an empty sample");
  if (options.resamples < 1)
    throw std::invalid_argument("bootstrap needs at least one resample");
  if (!(options.confidence > 0 && options.confidence < 1)) {
    throw std::invalid_argument("bootstrap confidence must lie between 0 and 1");
  }
  RatioInterval interval;
  const double median_a = median(a);
  if (!(median_a > 0))
    throw std::invalid_argument("ratio of medians with a median of a <= 0");
  interval.ratio = median(b) / median_a;

  std::mt19937_64 rng(options.seed);
  const ResampledMedian of_a(a), of_b(b);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    const double resampled_a = of_a.draw(rng);
    const double resampled_b = of_b.draw(rng);
    // A resample of a can have a zero median only when a holds zeros; skip such a draw.
    if (resampled_a > 0)
      ratios.push_back(resampled_b / resampled_a);
  }
  if (ratios.empty())
    throw std::invalid_argument("ratio of medians with a median of a <= 0");
  const double tail = (1.0 - options.confidence) / 2.0;
  interval.low = percentile(ratios, tail);
  interval.high = percentile(ratios, 1.0 - tail);
  return interval;
}

} // namespace cb
