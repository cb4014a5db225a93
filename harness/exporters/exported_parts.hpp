#pragma once
// How many named parts an exported verdict lists one by one. A qualification of a healthy
// cluster names a few; a fabric gone wrong can name thousands, and a CI page or a Prometheus
// server should not be handed one entry per GPU of the cluster for it: past the cap, one entry
// says how many more there are (the text and JSON reports keep the whole list).
#include <cstddef>

namespace cb {

inline constexpr std::size_t kMaxExportedSuspects = 256;

} // namespace cb
