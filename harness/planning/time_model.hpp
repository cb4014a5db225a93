#pragma once
// The planner's time model: seconds per operation of each case, as its family estimates them
// (runtime/family.hpp, bench/<family>/family.cpp), and the seconds a record takes under the
// engine's rules (runtime/engine.hpp) for a given operation time.
//
// Per operation (one call the engine times), per family (each in its family.cpp):
//   compute      streaming kernels: bytes moved / memory bandwidth (copy, scale 2x the array, add,
//                triad 3x, read 1x); gemm: 2mnk / GEMM rate (half for double); fma_peak: 1 ms
//                (its kernels are sized to about that).
//   links        pair_bw, ring_bw, p2p_matrix, copies: bytes / the link's bandwidth (inside a node
//                or across nodes); pair_latency: a round trip, 2 x the tier's step latency.
//   collectives  alpha-beta (Hockney, as harness/analysis/alpha_beta fits it):
//                alpha_launch + steps x alpha_step + bytes x busbw_factor(n) / bus bandwidth, with
//                log2 n steps (trees and recursive doubling; n - 1 for alltoall), the step latency
//                and the bandwidth of the slowest tier taking part.
//   storage      one read of the rank's bytes, the node's storage bandwidth shared by its ranks;
//                random reads add one latency per block (divided by the queue depth).
// A case its family has no estimate for (or of no registered family): kDefaultOperationSeconds,
// and the plan says so (RunPlan::default_estimates).
#include <nlohmann/json.hpp>
#include <string>

#include "planning/hardware_model.hpp"
#include "runtime/engine.hpp"

namespace cb {

struct PhaseShape {
  int ranks = 1;
  int nodes = 1;
  int ranks_per_node = 1;
  // Every node of this phase ran the case's previous phase a moment before and freed its memory:
  // what this phase allocates, up to that, comes back faster (hardware_model.hpp,
  // checkpoint_fill_reused_bw).
  bool memory_reused = false;
};

inline constexpr double kDefaultOperationSeconds = 1e-3;

struct OperationEstimate {
  double seconds = kDefaultOperationSeconds;
  bool from_family = false; // false: the default, for a case no family estimates
};

OperationEstimate estimate_operation(const std::string& suite, const std::string& name,
                                     const nlohmann::json& params, const PhaseShape& shape,
                                     const HardwareModel& model);
// estimate_operation's seconds.
double operation_seconds(const std::string& suite, const std::string& name,
                         const nlohmann::json& params, const PhaseShape& shape,
                         const HardwareModel& model);

// What a record costs before and after its measurement beyond model.record_setup_s, as its family
// says: the STREAM arrays' first touch (three arrays), the storage file written the first time
// (its bytes at the node's storage bandwidth), a links record's fabric; nothing for the others.
double setup_seconds(const std::string& suite, const std::string& name,
                     const nlohmann::json& params, const PhaseShape& shape,
                     const HardwareModel& model);

// What the families' estimates read from a case's params: a number (`fallback` when the key is
// missing or not a number), a string ("" likewise), and the steps of a log2-depth tree.
double param_number(const nlohmann::json& params, const char* key, double fallback);
std::string param_text(const nlohmann::json& params, const char* key);
double log2_steps(int n);

// One engine barrier + gather + broadcast (each a log2-depth tree), seconds.
double sync_seconds(const PhaseShape& shape, const HardwareModel& model);

struct RecordEstimate {
  double seconds = 0;    // the whole measurement: warm-up, calibration, sampling
  double sampling_s = 0; // the sampling loop alone
  int batch = 1;
  int samples = 0;
  std::string expect; // converged | settled | window | cap
};

// One engine measurement (engine.cpp's measure()): warm-up batches, one calibration operation,
// one calibration batch when the batch is larger than one, then samples of `batch` operations
// (each plus one sync) until
//   converged: min_samples and min_time reached (what the planner expects of most records), or
//   settled:   for launch-bound operations, the settle check after twice settle_window samples,
//   window:    without early stop (settings.stop_early false), min_samples and min_time reached,
// whichever applies, never past the cap (the engine stops at the first sample ending after it) nor
// max_samples. `sample_extra_s`: what each sample costs beyond its batch and sync (not the
// warm-up's or the calibration's).
RecordEstimate estimate_measurement(double op_s, double sync_s, const MeasureSettings& settings,
                                    bool launch_bound, double sample_extra_s = 0);

} // namespace cb
