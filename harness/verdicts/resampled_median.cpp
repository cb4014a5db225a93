#include "verdicts/resampled_median.hpp"

#include <algorithm>
#include <cmath>

namespace cb {
namespace {

double beta(double a, double b, std::mt19937_64& rng) {
  const double x = std::gamma_distribution<double>(a, 1.0)(rng);
  const double y = std::gamma_distribution<double>(b, 1.0)(rng);
  return x / (x + y);
}

} // namespace

ResampledMedian::ResampledMedian(std::vector<double> values) : sorted_(std::move(values)) {
  std::sort(sorted_.begin(), sorted_.end());
  const std::size_t n = sorted_.size();
  rank_ = n % 2 == 1 ? (n + 1) / 2 : n / 2;
}

double ResampledMedian::draw(std::mt19937_64& rng) const {
  const std::size_t n = sorted_.size();
  const double u = beta(static_cast<double>(rank_), static_cast<double>(n + 1 - rank_), rng);
  const double lower = at(u);
  if (n % 2 == 1)
    return lower;
  // The smallest of the n - rank_ draws above U(rank_): 1 - W^(1/(n - rank_)), W uniform.
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const double v = 1.0 - std::pow(uniform(rng), 1.0 / static_cast<double>(n - rank_));
  return (lower + at(u + (1.0 - u) * v)) / 2.0;
}

double ResampledMedian::at(double u) const {
  const auto n = sorted_.size();
  const auto index = static_cast<std::size_t>(u * static_cast<double>(n));
  return sorted_[std::min(index, n - 1)];
}

} // namespace cb
