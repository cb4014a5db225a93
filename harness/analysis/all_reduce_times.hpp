#pragma once
// The all-reduce time of any message size at one GPU count, from the collectives/all_reduce
// records measured there: linear between the measured sizes, beyond the largest along the slope
// of the two largest (the per-byte cost the largest messages reached: a straight alpha-beta line
// fitted over all sizes is pulled down by the small ones, which a shaped or congested link
// serves at burst speed), below the smallest the smallest's time. This is what a gradient bucket
// of that size costs on those GPUs, as measured rather than as fitted.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/record.hpp"

namespace cb {

class MeasuredAllReduce {
public:
  // The usable all_reduce records at `gpus` GPUs on `nodes` nodes: out-of-place ones when there
  // are any (as the ring fit), of `dtype` and op sum when there are any; several at one size give
  // their median. nullopt when none is there.
  static std::optional<MeasuredAllReduce> from(const ResultsFile& results, int gpus, int nodes,
                                               const std::string& dtype);
  // From (bytes, seconds) points directly.
  explicit MeasuredAllReduce(std::vector<std::pair<double, double>> points);

  double time(double bytes) const;
  double largest_bytes() const { return points_.empty() ? 0 : points_.back().first; }
  std::size_t sizes() const { return points_.size(); }

private:
  std::vector<std::pair<double, double>> points_; // by bytes, one per size
};

} // namespace cb
