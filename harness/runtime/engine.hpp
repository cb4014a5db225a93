#pragma once
// The measurement engine: how every benchmark is timed, whatever it measures.
//
// Rules (docs/DESIGN.md, "Measurement rules"): ranks never decide on their own. Batch size and
// stopping are decided on rank 0 and broadcast, so every rank runs the same number of operations
// and no collective deadlocks. One sample = the time of a batch of k operations divided by k, max
// over ranks. Warm-up and the calibration batches are never kept. Sampling stops when the robust
// relative spread reaches the target after a minimum count and time, or at the time cap (then the
// record is `noisy`).
#include <functional>
#include <vector>

namespace cb {

class Communicator;

struct MeasureSettings {
  double target_cv = 0.01; // stop when the relative spread of the samples is at most this
  int min_samples = 5;     // ... and at least this many samples
  double min_time_s = 0.1; // ... and at least this much time sampling
  double max_time_s = 2.0; // the cap: stop regardless, mark noisy if not converged
  int max_samples = 1000;
  double batch_time_s = 0.002; // grow the batch until one takes at least this long
  int max_batch = 1 << 20;
  int warmup_batches = 1;
};

enum class StopDecision { keep_going, converged, capped };

// The relative standard deviation used by the stopping rule, estimated robustly:
// 1.4826 x MAD / median (equal to stddev / mean for normal samples). One batch preempted by the OS
// would otherwise hold sampling open until the cap on a shared machine.
double robust_relative_spread(const std::vector<double>& samples);

// The stopping rule alone, for unit tests and for rank 0.
StopDecision stopping_rule(const std::vector<double>& samples, double elapsed_s,
                           const MeasureSettings& settings);

struct Measurement {
  std::vector<double> samples_s;     // seconds per operation, max over ranks
  std::vector<double> rank_median_s; // rank 0 only: each rank's own median, seconds per operation
  int batch = 1;                     // operations per sample
  bool converged = false;
};

// `timed_batch(k)` runs k operations and returns this rank's seconds for them. Every rank of comm
// must call measure() with the same settings.
Measurement measure(const Communicator& comm, const MeasureSettings& settings,
                    const std::function<double(int)>& timed_batch);

// The batch size rule alone: the smallest power of two whose batch takes at least target seconds,
// given the time of one operation (capped at max_batch).
int batch_for(double seconds_per_op, const MeasureSettings& settings);

} // namespace cb
