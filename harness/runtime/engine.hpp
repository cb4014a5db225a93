#pragma once
// The measurement engine: how every benchmark is timed, whatever it measures.
//
// Rules (docs/DESIGN.md, "Measurement rules"): ranks never decide on their own. Batch size and
// stopping are decided on rank 0 and broadcast, so every rank runs the same number of operations
// and no collective deadlocks. One sample = the time of a batch of k operations divided by k, max
// over ranks (one reduction per sample, which also says whose time was the shortest); each rank
// keeps its own samples, and rank 0 gathers a fixed-size summary of them per rank at the end
// (RankTiming). Warm-up and the calibration batches are never kept. Sampling stops when the
// relative standard deviation reaches the target after a minimum count and time (`converged`), when
// it stays above the target but has stopped changing (`settled`, nvbench's stdrel criterion: the
// record is `noisy` and more samples would not make it less so), or at the time cap (`cap`,
// `noisy`).
#include <functional>
#include <string>
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
  // Stably noisy records (nvbench's stdrel criterion): every `settle_every` samples, once more than
  // `settle_window` samples are in, the spread of the last `settle_window` sample counts is looked
  // at; when its own relative standard deviation about the current spread, and the drift of its
  // trend across the window, are both under `settle_tolerance`, sampling stops. nvbench uses 64
  // values, every 16 samples, 5 %.
  bool settle = true;
  int settle_window = 64;
  int settle_every = 16;
  double settle_tolerance = 0.05;
  // false: a fixed window. Sampling stops once min_samples and min_time are both reached, never
  // earlier and whatever the spread (converged when it is within the target, else noisy), or at
  // the cap.
  bool stop_early = true;
  // When above 0, the plan gives each record that is not launch-bound (nor a pair test's round)
  // such a window of window_s, and each launch-bound record a cap of launch_bound_cap_s, keeping
  // its early stop. On a shared machine a record either stopped after ~5 samples or ran 4-15x
  // longer, to the settle check or the cap, by chance: a phase of them took a time no plan could
  // state (docs/REFERENCE.md, "Measured against the run"). A launch-bound record keeps its early
  // stop because the regression gate's run figures are steadier with it: a fixed 0.03 s window
  // raised the smallest change the quick gate could see for all_reduce on one rank from 1-7 %
  // to 4-120 % (docs/REGRESSION_GATE.md).
  double window_s = 0;
  double launch_bound_cap_s = 0;
};

// Values are broadcast as ints: keep_going must stay 0.
enum class StopDecision { keep_going = 0, converged = 1, capped = 2, settled = 3 };

// The relative standard deviation used by the stopping rule, estimated robustly:
// 1.4826 x MAD / median (equal to stddev / mean for normal samples). One batch preempted by the OS
// would otherwise hold sampling open until the cap on a shared machine.
double robust_relative_spread(const std::vector<double>& samples);

// Whether the spread of `samples` has settled above the target (the `settle` rule above).
bool spread_settled(const std::vector<double>& samples, const MeasureSettings& settings);

// The settings for timing a latency: a message's round trip varies by tens of percent from one to
// the next on a shared network, so a sample of a millisecond's ping-pongs rarely meets the spread
// target and sampling runs to the cap. Each sample averages more operations instead (osu_latency
// averages thousands): at least kLatencyBatchS of them where the cap leaves room for 4 x
// min_samples such samples, never less than the run's batch time. Used by the ping-pong pair test
// and by the planner, which must time it the same way.
inline constexpr double kLatencyBatchS = 0.01;
MeasureSettings latency_settings(const MeasureSettings& run);

// The stopping rule alone, for unit tests and for rank 0.
StopDecision stopping_rule(const std::vector<double>& samples, double elapsed_s,
                           const MeasureSettings& settings);

// One rank's own times over the samples of a measurement, as rank 0 gathers them at the end: a
// fixed-size summary per rank, never the samples themselves.
struct RankTiming {
  double median_s = 0; // seconds per operation
  double p99_s = 0;
  // The fraction of samples in which this rank's own time was the shortest of all ranks (the
  // lowest rank on a tie): in a collective, the rank that arrived last, whom the others waited for.
  double shortest_share = 0;
};

struct Measurement {
  std::vector<double> samples_s;     // seconds per operation, max over ranks
  std::vector<double> rank_median_s; // rank 0 only: each rank's own median, seconds per operation
  std::vector<RankTiming> rank_timing; // rank 0 only: each rank's summary, in comm rank order
  std::vector<double> own_samples_s;   // every rank: its own seconds per operation, one per sample
  int batch = 1;                     // operations per sample
  bool converged = false;
  std::string stop = "converged"; // why sampling stopped: converged | settled | cap | max_samples
  double sampling_s = 0;          // wall time of the sampling loop (warm-up and calibration not in)
};

// `timed_batch(k)` runs k operations and returns this rank's seconds for them. Every rank of comm
// must call measure() with the same settings.
Measurement measure(const Communicator& comm, const MeasureSettings& settings,
                    const std::function<double(int)>& timed_batch);

// The batch size rule alone: the smallest power of two whose batch takes at least target seconds,
// given the time of one operation (capped at max_batch).
int batch_for(double seconds_per_op, const MeasureSettings& settings);

} // namespace cb
