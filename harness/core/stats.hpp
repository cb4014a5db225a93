#pragma once
// Summary statistics of timing samples. The median is the figure quoted; the rest describe spread.
#include <vector>

namespace cb {

struct Stats {
  std::size_t count = 0;
  double median = 0, mean = 0, min = 0, max = 0, stddev = 0, cv = 0, p05 = 0, p95 = 0, p99 = 0;
  // Per-iteration spikes: p99 / median (at least 1; 0 without samples or with a zero median).
  double spike = 0;
};

// Percentile by linear interpolation between closest ranks (numpy's default), q in [0, 1].
double percentile(std::vector<double> values, double q);
double median(std::vector<double> values);
// Sample standard deviation (n - 1); 0 for fewer than two values.
double stddev(const std::vector<double>& values);
// Coefficient of variation: stddev / mean; 0 when the mean is 0.
double coefficient_of_variation(const std::vector<double>& values);
// Median absolute deviation (unscaled).
double median_absolute_deviation(const std::vector<double>& values);
Stats summarize(const std::vector<double>& values);
// p99 / median of summarize(): 0 when the median is not above 0.
double spike_ratio(double p99, double median);
// `value` to `digits` significant digits (0, inf and NaN unchanged): per-rank figures are written
// to the precision a timer gives, not the 17 digits a double prints with, which at a thousand
// ranks per record is most of a results file.
double round_significant(double value, int digits);

} // namespace cb
