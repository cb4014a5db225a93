#include "cuda/copy_span.hpp"

#include <algorithm>

namespace cb::cuda {

CopyWindow timed_window(double released_s, double completed_s, double event_seconds) {
  return {std::max(released_s, completed_s - event_seconds), completed_s};
}

double span_gbps(int ranks, std::size_t bytes, long long copies, double span_s) {
  if (!(span_s > 0) || ranks <= 0 || copies <= 0)
    return 0;
  return static_cast<double>(ranks) * static_cast<double>(bytes) * static_cast<double>(copies) /
         span_s / 1e9;
}

} // namespace cb::cuda
