#include "core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace cb {

double percentile(std::vector<double> values, double q) {
  if (values.empty())
    throw std::invalid_argument("percentile of no values");
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  const double frac = pos - static_cast<double>(lo);
  return values[lo] + (values[hi] - values[lo]) * frac;
}

double median(std::vector<double> values) {
  return percentile(std::move(values), 0.5);
}

static double mean_of(const std::vector<double>& values) {
  if (values.empty())
    return 0.0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double stddev(const std::vector<double>& values) {
  if (values.size() < 2)
    return 0.0;
  const double m = mean_of(values);
  double sum = 0;
  for (double v : values)
    sum += (v - m) * (v - m);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

double coefficient_of_variation(const std::vector<double>& values) {
  const double m = mean_of(values);
  return m == 0.0 ? 0.0 : stddev(values) / m;
}

double median_absolute_deviation(const std::vector<double>& values) {
  if (values.empty())
    return 0.0;
  const double med = median(values);
  std::vector<double> dev;
  dev.reserve(values.size());
  for (double v : values)
    dev.push_back(std::fabs(v - med));
  return median(std::move(dev));
}

Stats summarize(const std::vector<double>& values) {
  Stats s;
  s.count = values.size();
  if (values.empty())
    return s;
  s.median = percentile(values, 0.5);
  s.mean = mean_of(values);
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  s.stddev = stddev(values);
  s.cv = s.mean == 0.0 ? 0.0 : s.stddev / s.mean;
  s.p05 = percentile(values, 0.05);
  s.p95 = percentile(values, 0.95);
  s.p99 = percentile(values, 0.99);
  s.spike = spike_ratio(s.p99, s.median);
  return s;
}

double spike_ratio(double p99, double median) {
  return median > 0 ? p99 / median : 0.0;
}

double round_significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value))
    return value;
  const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(std::abs(value))));
  const double rounded = std::round(value * scale) / scale;
  return std::isfinite(rounded) ? rounded : value;
}

} // namespace cb
