#pragma once
// The typical figure each observation is judged against, and the noise of the measurements.
//
// Inside a leaf the fabric is non-blocking: the typical figure is the median over nodes of each
// node's median figure (a node's median stays healthy while at most half its partners are slow,
// and the median over nodes while at most half the nodes are). Across leaves the figure depends on
// how loaded the uplinks were in that round (oversubscription is the fabric's, never a fault): the
// typical figure of a round is the median over leaves of each leaf's median crossing figure in
// it; a round with crossing figures from fewer than kVouchingLeaves leaves is judged against the
// same taken over every round. With fewer leaves than that in all, none can outvote a slow one:
// with three or four, crossing figures are judged against the fastest pair of leaves' median
// (what the fabric carries, oversubscribed or not; never above the inside figure); with two,
// the fabric is taken as non-blocking and they are judged against the inside typical figure.
// Faster than typical is never evidence.
//
// The noise is read from the fast side only: log ratios above zero are healthy figures' noise
// whatever share of the figures is slow, so sigma = median(positive log ratio) / 0.6745, at least
// kNoiseFloor (no pair test repeats better than half a percent).
#include <cstddef>
#include <vector>

#include "diagnosis/observation.hpp"

namespace cb {

inline constexpr double kNoiseFloor = 0.005;
inline constexpr std::size_t kVouchingLeaves = 5;

struct Normalised {
  std::vector<float> log_ratio; // per observation: log(value / typical); 0 when nothing to compare
  double sigma = kNoiseFloor;   // the relative noise of one figure
};

// `leaf_of_node`: the leaf (or screen group) of each node; crossing = different leaves.
Normalised normalise(const std::vector<Observation>& observations,
                     const std::vector<int>& leaf_of_node);

// Each source's figures (Observation::source) normalised on their own: its own typical figure
// and its own noise, in `sigma_by_source`.
struct NormalisedSources {
  std::vector<float> log_ratio;
  std::vector<double> sigma_by_source;
};
NormalisedSources normalise_by_source(const std::vector<Observation>& observations,
                                      const std::vector<int>& leaf_of_node, std::size_t sources);

// The median of `values` (reordered); 0 for none. The upper middle for an even count.
double median_of(std::vector<double>& values);

// z with P(N(0,1) > z) = p, for 0 < p < 0.5.
double upper_normal_quantile(double p);

} // namespace cb
