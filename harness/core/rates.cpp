#include "core/rates.hpp"

namespace cb {

double weak_scaling_rate(double work, int ranks, double seconds, bool whole, double unit) {
  if (seconds <= 0)
    return 0;
  return (whole ? ranks : 1) * work / seconds / unit;
}

} // namespace cb
