#pragma once
// Percentile-bootstrap confidence interval of the ratio of medians median(b) / median(a): how much
// larger b's typical value is than a's, with an honest range given the spread of both samples.
#include <cstdint>
#include <vector>

namespace cb {

struct RatioInterval {
  double ratio = 0; // median(b) / median(a) of the samples as given
  double low = 0;   // lower end of the interval
  double high = 0;  // upper end
};

struct BootstrapOptions {
  int resamples = 2000;
  double confidence = 0.95;
  // A fixed seed makes every report reproducible: the same files give the same interval.
  std::uint64_t seed = 0x636c757374657262ULL; // "clusterb"
};

// Resamples a and b independently with replacement (std::mt19937_64), computes the ratio of
// medians of each pair of resamples, and takes the (1 - confidence) / 2 and (1 + confidence) / 2
// percentiles of those ratios. Throws std::invalid_argument for an empty sample, a median of a
// that is not positive, or options out of range.
RatioInterval bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                                     const BootstrapOptions& options = {});

} // namespace cb
