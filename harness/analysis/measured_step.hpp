#pragma once
// The training step as measured (workload/data_parallel_step records) held against the step
// predicted for the same workload, at every measured GPU count:
//   - compute: the step's own, as measured at that count (its GEMMs and optimizer update; the
//     step's GEMM rate is also set against compute/gemm's, and a gap beyond
//     kPredictionTolerance is said);
//   - exposed all-reduce: the bucket timeline (bucket_timeline.hpp) of the step's gradient
//     buckets as it reports them (sizes, and the share of backward's measured compute done when
//     each is complete), each bucket priced by the collectives/all_reduce records at that GPU
//     count and size (all_reduce_times.hpp), by the ring fit where none were measured there;
//   - input: the bytes per step at storage/seq_read's rate (prediction.hpp).
// Per measured GPU count: predicted and measured step and efficiency, the error
// (predicted / measured - 1) and, beyond kPredictionTolerance, the term that is off.
//
// Beyond the largest measured count the prediction is the parts' alone (prediction.hpp, with the
// same bucket timeline on the ring fit and compute/gemm's rate) calibrated by the measured points:
// compute scaled by measured / predicted compute at the largest measured count, the exposed
// all-reduce scaled by measured / predicted at the largest measured count above 1 GPU (held at
// its measured value there where the parts' timeline hides it all), the input
// wait held at its value at the largest measured count, and E(N) = measured step(1) / calibrated
// step(N).
#include <optional>
#include <string>
#include <vector>

#include "analysis/prediction.hpp"
#include "results/record.hpp"

namespace cb {

// Predictions further off than this (either way) say which term is off.
inline constexpr double kPredictionTolerance = 0.15;
// A step's GPU clock under this share of compute/gemm's is named beside a compute gap.
inline constexpr double kSustainedClockShare = 0.95;

struct MeasuredStep {
  int gpus = 0;
  int nodes = 1;
  double step_s = 0, compute_s = 0, exposed_comm_s = 0, input_wait_s = 0;
  double backward_s = 0; // backward's compute, within compute_s (0: not reported)
  double update_s = 0;   // the optimizer update, within compute_s (0: not reported)
  // The GEMMs' time: compute without the update (an update that does not fit is not taken).
  double gemm_s() const {
    return update_s >= 0 && update_s < compute_s ? compute_s - update_s : compute_s;
  }
  double utilization = 0;
  std::optional<double> efficiency; // step(1) / step(N), where one GPU was measured
  double tokens_per_s = 0;
  std::string largest_loss;
  std::optional<double> sm_clock_mhz; // the GPU's SM clock as the measured steps ended
};

struct MeasuredWorkload {
  nlohmann::json params; // the configuration measured at the most GPU counts
  double model_params = 0, tokens_per_gpu = 0, gradient_bytes = 0, input_bytes_per_step = 0;
  double bucket_bytes = 0;
  bool overlap = true;
  std::string gradient_dtype = "float";
  // The gradient buckets: as the records report them, else as the host step cuts them (equal
  // layers, equal GEMMs) for records written before steps reported their buckets.
  BucketSchedule buckets;
  bool buckets_reported = false;
  std::vector<MeasuredStep> steps; // by GPU count

  const MeasuredStep* at(int gpus) const;
  const MeasuredStep& largest() const { return steps.back(); }
  // "16.8 M parameters, 256 tokens per GPU, 64 MiB of float gradients in 25 MiB buckets
  // overlapped with backward, no input read" (what a report prices).
  std::string describe() const;
};

// The usable workload/data_parallel_step records, grouped by configuration: the one measured at
// the most GPU counts (then the most recent in the file). nullopt when there is none.
std::optional<MeasuredWorkload> measured_workload(const ResultsFile& results);

// The buckets of `layers` equal layers holding gradient_bytes, cut into bucket_bytes from the
// last layer down, each complete once the lowest layer it covers has its weight gradient (the
// first of that layer's two backward GEMMs, all GEMMs taking equal time).
BucketSchedule equal_layer_buckets(double gradient_bytes, double bucket_bytes, int layers,
                                   bool overlap);

// The prediction's configuration for the measured shape, to `predict_to` GPUs.
PredictionConfig workload_prediction_config(const MeasuredWorkload& workload, int predict_to);

struct StepComparison {
  int gpus = 0;
  std::optional<MeasuredStep> measured;
  // Where measured: the measured compute with the exposed all-reduce of the bucket timeline and
  // the input of the parts; beyond: the parts alone, uncalibrated.
  StepTime predicted;
  std::string all_reduce_from;            // "all_reduce records at N GPUs" or "the ring fit"
  std::optional<double> error;            // predicted step / measured step - 1, where measured
  std::optional<double> efficiency_error; // predicted E / measured E - 1
  std::string off_term;                   // where |error| > tolerance: which term, and how
  // Beyond the largest measured count: the calibrated prediction.
  std::optional<double> calibrated_step_s, calibrated_efficiency;
  bool extrapolated = false;
};

struct StepValidation {
  MeasuredWorkload workload;
  std::optional<TrainingStepModel> model; // when the parts could be modelled
  std::string model_problem;              // why not (missing compute/gemm, all_reduce fits)
  std::vector<StepComparison> rows;       // measured counts, then 2x ... up to predict_to
  double compute_scale = 1, exposed_scale = 1, input_hold_s = 0; // the calibration
  double exposed_hold_s = 0; // where the parts hide all of the all-reduce the step exposed
  std::string calibration;   // how, in words
  std::optional<double> largest_error; // the error at the largest measured count
  // The step's GEMMs against compute/gemm at the largest measured count, when they differ by
  // more than kPredictionTolerance (the compute the parts alone would predict).
  std::string compute_note;
};

// Throws nothing: a results file without workload records gives nullopt; one whose parts cannot
// be modelled gives the measured rows with model_problem set. `plan_link` prices the all-reduce
// beyond one node where nothing was measured across nodes.
std::optional<StepValidation> validate_step(const ResultsFile& results, const std::string& source,
                                            int predict_to, const AssumedLink& plan_link = {});
// The same from the curves and ring fits of an analysis the caller already made.
std::optional<StepValidation> validate_step(const ResultsFile& results,
                                            const ScalingAnalysis& analysis,
                                            const std::string& source, int predict_to,
                                            const AssumedLink& plan_link = {});

// The efficiency at N GPUs: measured where measured, else the calibrated prediction; nullopt when
// neither is there, or where N spans nodes and nothing was measured across them nor a link
// assumed (`how` then says why, pricing_basis.hpp). `how` says which ("measured", "predicted,
// calibrated; 12.3 % off at 2").
std::optional<double> step_efficiency_at(const StepValidation& v, int gpus, std::string* how);

nlohmann::json step_validation_to_json(const StepValidation& v);

} // namespace cb
