#pragma once
// Hand-made figures for the diagnosis's tests.
#include "diagnosis/observation.hpp"

namespace cb::testing {

inline Observation figure(int src, int dst, int round, double value, int rail = 0) {
  Observation o;
  o.src = static_cast<std::uint32_t>(src);
  o.dst = static_cast<std::uint32_t>(dst);
  o.round = static_cast<std::uint32_t>(round);
  o.rail = static_cast<std::uint16_t>(rail);
  o.value = static_cast<float>(value);
  return o;
}

} // namespace cb::testing
