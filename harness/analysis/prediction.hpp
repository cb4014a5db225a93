#pragma once
// Predicted step time of data-parallel training (weak scaling: fixed tokens per GPU) from measured
// parts, extrapolated to GPU counts not measured:
//   t(N) = compute + exposed all_reduce(N) + input(N)
//   compute     = 6 params tokens_per_gpu / per-GPU GEMM throughput (compute/gemm, largest size)
//   all_reduce  = ring alpha-beta model at N (intra-node fit while N fits in one node, the
//                 inter-node fit beyond): for grad_bytes at once with `overlap` of it hidden, or,
//                 given the step's gradient buckets, bucket by bucket on the timeline of
//                 bucket_timeline.hpp (what ends after backward is exposed)
//   input       = bytes_per_step / per-GPU storage read throughput at N (storage/seq_read, measured
//                 where measured, else the USL fitted to it)
//   E(N) = t(1) / t(N)
// A training step need not read input from storage, so storage records are optional: without
// them the input term is left out (with a warning) unless the reads were asked for explicitly.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/alpha_beta.hpp"
#include "analysis/curves.hpp"
#include "analysis/scaling_fits.hpp"
#include "analysis/usl.hpp"

namespace cb {

// The gradient buckets of a step, for the all-reduce timeline (bucket_timeline.hpp), as a
// measured step reports them (analysis/measured_step.hpp).
struct BucketSchedule {
  std::vector<double> bytes;       // per bucket, in the order they are all-reduced
  std::vector<double> ready_share; // share of backward's compute done when each is complete
  double backward_share = 2.0 / 3; // backward's share of the step's compute (2 of 3 GEMMs)
  bool overlap = true;             // all-reduced during backward; else after it
};

// The exposed all-reduce of a step whose backward computes for backward_s, each bucket's
// all-reduce taking all_reduce_s(bytes).
double exposed_all_reduce(const BucketSchedule& schedule, double backward_s,
                          const std::function<double(double)>& all_reduce_s);

// An inter-node link the user assumes where none was measured (--plan-link), as typed and in
// bytes per second per rank.
struct AssumedLink {
  std::string text;
  double bytes_per_s = 0;
  bool given() const { return bytes_per_s > 0; }
};

struct PredictionConfig {
  double model_params = 0;          // --model-params
  double tokens_per_gpu = 0;        // --tokens-per-gpu, per step
  std::optional<double> grad_bytes; // --grad-bytes; default 2 bytes per parameter (bf16)
  double overlap = 0;               // --overlap: share of the all-reduce hidden behind compute
  // The step's gradient buckets: the all-reduce on their timeline instead of `overlap`.
  std::optional<BucketSchedule> buckets;
  double bytes_per_step = 0;        // --bytes-per-step: input read per GPU per step; 0 = none
  // --bytes-per-step was given: results without storage records are then an error, not a note.
  bool input_required = false;
  int predict_to = 1024; // report --predict-to: the sweep runs 1, 2, 4, ... up to it
  // --plan-link: prices the all-reduce beyond one node where no inter-node all_reduce was measured.
  AssumedLink plan_link;

  double gradient_bytes() const { return grad_bytes ? *grad_bytes : 2 * model_params; }
};

// InputError naming the flag for a value out of range.
void validate_prediction_config(const PredictionConfig& config);

struct StepTime {
  int gpus = 0;
  double compute_s = 0;
  double all_reduce_s = 0; // exposed part, after overlap
  double input_s = 0;
  double step_s = 0;
  double efficiency = 0;     // t(1) / t(N)
  std::string dominant;      // compute | all_reduce | input
  bool extrapolated = false; // beyond the GPU counts all_reduce was measured at
};

// The SM clock a record's device read as its measurement ended (extra.state_after, rank 0's),
// where the backend reads one; none when absent or not a positive number.
std::optional<double> sm_clock_at_end(const Record& record);

struct TrainingStepModel {
  PredictionConfig config;
  double gemm_tflops_per_gpu = 0;
  std::string gemm_from;              // which measurement it came from
  std::optional<double> gemm_sm_clock_mhz; // the GPU's SM clock as that measurement ended
  std::vector<RingAllReduceFit> ring; // fits with numbers, one per tier
  int gpus_per_node = 1;
  int largest_measured_gpus = 0;
  std::optional<Curve> storage; // the seq_read curve used, when input is read
  std::optional<UslFit> storage_usl;
  // bytes_per_step > 0 but the results have no storage records: t(N) has no input term.
  bool input_left_out = false;
  std::vector<std::string> warnings;
};

// Throws InputError naming `source` and the missing suite/case when a part cannot be measured
// (storage only when config.input_required).
TrainingStepModel build_training_step_model(const ResultsFile& results,
                                            const PredictionConfig& config,
                                            const std::string& source);
// The same from the curves and ring fits of an analysis the caller already made (the report makes
// one and hands it to every section, so nothing is extracted or fitted twice).
TrainingStepModel build_training_step_model(const ResultsFile& results,
                                            const ScalingAnalysis& analysis,
                                            const PredictionConfig& config,
                                            const std::string& source);
StepTime predict_step(const TrainingStepModel& model, int gpus);
// The ring model's all-reduce time of `bytes` at N (the tier N falls in).
double ring_all_reduce_s(const TrainingStepModel& model, double bytes, int gpus);
// The ring fit that prices N: the inter-node tier beyond one node where there is one (measured,
// or assumed with --plan-link), else the only one.
const RingAllReduceFit& ring_tier_at(const TrainingStepModel& model, int gpus);

struct Prediction {
  TrainingStepModel model;
  std::vector<StepTime> steps; // 1, 2, 4, ... up to predict_to
  std::optional<int> knee_80;  // first N with E < 0.8
  std::optional<int> knee_50;  // first N with E < 0.5
};

Prediction predict_training(const ResultsFile& results, const PredictionConfig& config,
                            const std::string& source);
Prediction predict_training(const ResultsFile& results, const ScalingAnalysis& analysis,
                            const PredictionConfig& config, const std::string& source);
// The steps at 1, 2, 4, ... up to model.config.predict_to of a model already built.
Prediction predict_training(TrainingStepModel model);
nlohmann::json prediction_to_json(const Prediction& prediction);
// A table of N, step time, parts, efficiency and the dominant part, then the knees.
std::string format_prediction(const Prediction& prediction);

} // namespace cb
