#pragma once
// Naming the rank the others wait for in a collective, from each rank's own times
// (docs/REFERENCE.md, "Stragglers").
//
// In a collective every rank finishes at about the same moment, so a rank's own time is short when
// it starts late: the rank that arrives last (its host late to the barrier or to launching, its
// work before the collective slowest) has the shortest own time, and the others' times include
// waiting for it. A rank slow inside the collective itself slows every rank alike and cannot be
// told this way. The rule names one rank when all of these hold:
//   - at least kStragglerMinSamples samples and two ranks;
//   - its own time was the shortest in most samples (share > kStragglerMinShare);
//   - that share is no accident of equal ranks: with each rank the shortest with probability 1/P,
//     the chance that any of the P ranks is the shortest this often is at most kStragglerChance;
//   - its median own time is at least kStragglerGap below the median of the other ranks' medians;
//   - and the others waited at least kStragglerMinWait_s per batch for it.
#include <cstddef>
#include <optional>
#include <vector>

#include "runtime/engine.hpp"

namespace cb {

inline constexpr std::size_t kStragglerMinSamples = 5;
inline constexpr double kStragglerMinShare = 0.5;
// One false name in a thousand records of equal ranks, before the gap is even looked at.
inline constexpr double kStragglerChance = 1e-3;
// Equal ranks' medians differ by the barrier's exit skew and the timer's resolution spread over a
// batch of at least batch_time_s (2 ms): microseconds, a few percent at the very most on a
// thousand nodes. 10 % is clear of that, and it is the fleet rules' 0.90 x median scale.
inline constexpr double kStragglerGap = 0.10;
// The gap above is a share of a batch of at least batch_time_s. A batch can be shorter (a
// calibration operation preempted by the OS picks a batch of 1 for a microsecond collective):
// then the barrier's exit order alone, the same rank last out every time, makes a wait of a
// microsecond look like most of the time. 50 us per batch is above that exit skew even across a
// thousand nodes (a tree of ten levels of a few microseconds each), and a quarter of what a
// batch of 2 ms loses at the 10 % gap.
inline constexpr double kStragglerMinWait_s = 50e-6;

struct StragglerFinding {
  std::size_t index = 0; // in the comm rank order of the timings
  double shortest_share = 0;
  double median_s = 0;
  double others_median_s = 0;
  double chance = 1; // chance_of_share for its share
};

// The chance that, among `ranks` equal ranks (each the shortest in a sample with probability
// 1/ranks, samples independent), any one is the shortest in at least `hits` of `samples`: ranks x
// the binomial upper tail, at most 1.
double chance_of_share(std::size_t hits, std::size_t samples, std::size_t ranks);

// The rule above over the ranks' summaries of `samples` samples of `batch` operations each
// (their times are per operation); nullopt names nobody.
std::optional<StragglerFinding> find_straggler(const std::vector<RankTiming>& ranks,
                                               std::size_t samples, int batch);

// Whose raw own samples a record keeps (at most kRankSamplesRanks, in this order, no repeats): the
// named straggler or else the rank with the lowest median own time (the one most waited for), the
// rank with the highest (the one that waited most) and a rank at the median of the medians (what
// a usual rank saw).
std::vector<std::size_t> ranks_to_keep(const std::vector<RankTiming>& ranks,
                                       const std::optional<StragglerFinding>& straggler);

} // namespace cb
