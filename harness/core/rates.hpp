#pragma once
// The one rule for "every rank at once" figures (compute kernels, the links ring, storage reads):
// the aggregate is Σ work / the slowest rank's time, and each rank's own figure is its work over
// its own time.
namespace cb {

// `work` units (bytes or flops) per rank per operation, in `seconds` per operation.
// whole: the group's aggregate, ranks x work / seconds; otherwise one rank's work / seconds.
// `unit` scales the result (1e9 for GB/s and GFLOP/s). 0 when no time was measured.
double weak_scaling_rate(double work, int ranks, double seconds, bool whole, double unit = 1e9);

} // namespace cb
