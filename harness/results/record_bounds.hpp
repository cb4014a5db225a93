#pragma once
// Bounds of the figures a record holds: nothing measured takes a million seconds per operation,
// no rate or count reaches 1e12 of its unit, no run has a million nodes. A value past them is a
// broken file, not a measurement (results/results.schema.json states the same bounds).

namespace cb {

inline constexpr long long kMaxCount = 1'000'000;
inline constexpr double kMaxSeconds = 1e6;
inline constexpr double kMaxMetric = 1e12;
inline constexpr double kMaxSpike = 1e6;

} // namespace cb
