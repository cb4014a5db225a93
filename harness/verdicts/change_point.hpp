#pragma once
// Where in a history of runs a case's figure changed: change points over a series of run-level
// figures (each run's median), oldest first.
//
// The method, a simple relative of E-Divisive (Matteson and James, JASA 2014; the method
// MongoDB's CI uses, Daly et al., ICPE 2020): on the logs of the figures, every split into a
// before and an after of at least kMinSegment runs each is scored by the two-sample t statistic
// |mean(after) - mean(before)| / (s sqrt(1/n_before + 1/n_after)), s the noise estimated from
// successive differences (robust to the level shifts themselves); the best split's
// significance is the share of random orders of the same figures (permutations, a fixed seed)
// whose best split scores as high. A significant split whose change exceeds the threshold is a
// change point, and each side is searched again (binary segmentation), so a history with two
// changes shows both. Permutations assume runs are exchangeable when nothing changed: a slow
// drift shows as a change somewhere in it.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cb {

struct ChangePointOptions {
  double alpha = 0.01;     // significance of the best split, by permutation
  double threshold = 0.05; // smallest relative change reported
  int permutations = 999;
  std::uint64_t seed = 0x636c757374657262ULL;
};

inline constexpr std::size_t kMinSegment = 2;

struct ChangePoint {
  std::size_t index = 0; // the first run after the change (an index into the series)
  double before = 0;     // median of the figures of the segment before it
  double after = 0;      // median of the figures of the segment after it
  double change = 0;     // after / before - 1
  double p_value = 1;    // by permutation
};

// `figures` must be positive; change points in series order.
std::vector<ChangePoint> find_change_points(const std::vector<double>& figures,
                                            const ChangePointOptions& options = {});

} // namespace cb
