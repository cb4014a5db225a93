#include "verdicts/bootstrap.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "core/stats.hpp"

namespace cb {
namespace {

// Median of a resample drawn into a reused buffer (nth_element: the resample order is irrelevant).
double resample_median(const std::vector<double>& values, std::vector<double>& buffer,
                       std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
  for (double& slot : buffer)
    slot = values[pick(rng)];
  const std::size_t mid = buffer.size() / 2;
  std::nth_element(buffer.begin(), buffer.begin() + static_cast<long>(mid), buffer.end());
  const double upper = buffer[mid];
  if (buffer.size() % 2 == 1)
    return upper;
  const double lower = *std::max_element(buffer.begin(), buffer.begin() + static_cast<long>(mid));
  return (lower + upper) / 2.0;
}

} // namespace

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
  std::vector<double> buffer_a(a.size()), buffer_b(b.size());
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    const double resampled_a = resample_median(a, buffer_a, rng);
    const double resampled_b = resample_median(b, buffer_b, rng);
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
