#pragma once
// Goodput: the share of a job's wall time that advances training when failures interrupt it, it
// saves a checkpoint every tau seconds of work and each failure costs a restart (Daly 2006, "A
// higher order estimate of the optimum checkpoint interval for restart dumps"). With failures
// exponential at the job's MTBF M = gpu_mtbf / N, a checkpoint blocking C seconds and a restart
// of R seconds, each segment of tau seconds of work takes in expectation
//   T(tau) = M e^{R/M} (e^{(tau + C)/M} - 1)
// of wall time, so goodput(tau) = tau / T(tau). It is largest at
//   tau* = M (1 + W0(-e^{-(1 + C/M)}))  (W0: the principal branch of Lambert's W),
// which for C << M is Young's sqrt(2 C M) less about 2C/3. A job whose checkpoint or restart
// takes at least its MTBF is said to make no useful progress (it expects a failure before either
// completes); its figures are still the model's, small and positive.
#include <nlohmann/json.hpp>
#include <string>

namespace cb {

// Llama 3's pre-training: 419 unexpected interruptions in 54 days on 16,384 H100 GPUs (Dubey et
// al., "The Llama 3 Herd of Models", 2024, section 3.3.4): one failure per 50,677 GPU-hours.
inline constexpr double kLlama3GpuMtbfHours = 16384.0 * 54 * 24 / 419;

struct GoodputInputs {
  long long gpus = 1;                          // --gpus
  double gpu_mtbf_hours = kLlama3GpuMtbfHours; // --gpu-mtbf-hours: one GPU's MTBF
  double checkpoint_s = 0;                     // --checkpoint-s: C, blocking time per checkpoint
  double restart_s = 0;                        // --restart-s: R, from failure to training again
};

struct GoodputEstimate {
  GoodputInputs inputs;
  double mtbf_s = 0; // M, the job's mean time between failures
  // false when C >= M or R >= M: a failure is expected before either completes, and the job
  // makes no useful progress (the figures below say how little).
  bool progresses = true;
  double interval_s = 0; // tau*, seconds of work between two checkpoints
  double goodput = 0;    // goodput(tau*)
  // Shares of wall time lost, summing with goodput to 1: the checkpoints that completed, the work
  // (and checkpoints) a failure threw away, the restarts (failures during a restart included).
  double lost_checkpoints = 0, lost_rework = 0, lost_restarts = 0;
};

// The expected wall time of one segment of `interval_s` seconds of work: T(tau) above.
double segment_wall_s(double interval_s, double checkpoint_s, double restart_s, double mtbf_s);
// goodput(tau) = tau / T(tau).
double goodput_at(double interval_s, double checkpoint_s, double restart_s, double mtbf_s);
// tau*, the interval that maximises goodput_at, for C > 0 (Lambert W in closed form, solved as
// ln(1 - u) + u + C/M = 0 for u = tau/M in (0, 1); W0's branch-point series for C/M < 1e-4).
double optimal_interval_s(double checkpoint_s, double mtbf_s);

// Throws InputError naming the flag: --gpus 1..1e9, --gpu-mtbf-hours in (0, 1e9], --checkpoint-s
// and --restart-s in (0, one week].
GoodputEstimate estimate_goodput(const GoodputInputs& inputs);

// "on 1024 GPUs: a failure every 49h 29m 21s (one per 50677 GPU-hours); a checkpoint every
// 1h 03m 15s of work blocking 41s; restart 6m 00s: 97.7 % goodput (lost to checkpoints 1.1 %,
// rework 1.1 %, restarts 0.2 %)"; where C or R >= M, the verdict that the job cannot make useful
// progress comes first.
std::string format_goodput(const GoodputEstimate& estimate);
// {"mtbf_s", "interval_s", "goodput", "lost": {"checkpoints", "rework", "restarts"}, "progress",
// the inputs}; "progress" is false where C or R >= M.
nlohmann::json goodput_to_json(const GoodputEstimate& estimate);

} // namespace cb
