#pragma once
// The median of a resample of `values` (n values drawn with replacement), drawn without drawing
// the n values. Drawing index floor(n u) for a uniform u picks each value with probability 1/n,
// as a uniform index does, and the k-th smallest of n such draws is sorted[floor(n U(k))], where
// U(k), the k-th smallest of n uniforms, is Beta(k, n + 1 - k); the next one above it is
// U(k) + (1 - U(k)) V with V the smallest of the other n - k, Beta(1, n - k). So a resample's
// median has exactly the distribution of drawing n values and taking theirs, at a cost per
// resample that does not grow with n (drawing the values cost 2,000 x n draws per record: 40 s
// for compare on the file of a 128-node run, tests/perf/harness-scale).
#include <cstddef>
#include <random>
#include <vector>

namespace cb {

class ResampledMedian {
public:
  explicit ResampledMedian(std::vector<double> values);
  // One resample's median.
  double draw(std::mt19937_64& rng) const;

private:
  double at(double u) const;

  std::vector<double> sorted_;
  std::size_t rank_ = 1; // the median's rank among the draws, 1-based (the lower of two for even n)
};

} // namespace cb
