#pragma once
// The most rounds each stage of the pair tests' second pass measures (bench/links/pair_naming.hpp),
// at any fleet size. One figure for the case that obeys it and the planner that bounds a pair
// phase's worst case with it.
#include <cstddef>

namespace cb {

inline constexpr std::size_t kSecondPassMaxRoundsPerStage = 8;
inline constexpr int kSecondPassStages = 2; // the ends against good partners, then the pairs

} // namespace cb
