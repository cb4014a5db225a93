#include "analysis/bucket_timeline.hpp"

#include <algorithm>

namespace cb {

BucketTimeline bucket_timeline(const std::vector<double>& ready_s,
                               const std::vector<double>& all_reduce_s, double backward_s,
                               bool overlap) {
  BucketTimeline t;
  const std::size_t n = std::min(ready_s.size(), all_reduce_s.size());
  double previous_end = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double ready = overlap ? std::min(ready_s[k], backward_s) : backward_s;
    const double start = std::max(ready, previous_end);
    t.start_s.push_back(start);
    t.end_s.push_back(start + all_reduce_s[k]);
    previous_end = t.end_s.back();
  }
  t.exposed_s = n > 0 ? std::max(0.0, previous_end - backward_s) : 0.0;
  return t;
}

} // namespace cb
