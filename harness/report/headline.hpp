#pragma once
// The answer at the top of the report: which part of the cluster limits scaling first, and what
// a data-parallel training step is predicted to keep of each GPU at 64 and 1024 GPUs and what the
// lost efficiency costs (overhead = 1/E - 1, as in analysis/cost.hpp).
//
// A part is one case of a family (compute/gemm, collectives/all_reduce, storage/seq_read, ...),
// represented by its configuration that was measured at the most GPU counts, the best-performing
// one on a tie (a job runs the best configuration). It limits at the first GPU count where its
// efficiency falls under the threshold (80 %): measured counts first, then powers of two up to
// the prediction horizon (--predict-to) from its fitted law. The part that gets there at the fewest
// GPUs limits first; on a tie, the lower efficiency there.
#include <optional>
#include <string>
#include <vector>

#include "analysis/measured_step.hpp"
#include "analysis/prediction.hpp"
#include "analysis/pricing_basis.hpp"
#include "analysis/useful_work.hpp"
#include "report/curve_report.hpp"

namespace cb::report {

struct ReportOptions {
  PredictionConfig step;           // the training step predicted; see default_training_step()
  // --model-params or --tokens-per-gpu given: the step predicted is the user's, shown even where
  // a measured step (workload records) replaces the default one.
  bool step_given = false;
  std::optional<double> gpu_hours; // the job's GPU-hours at perfect scaling: adds wall time
  std::optional<double> price;     // per GPU-hour, with gpu_hours: adds the cost
  std::vector<int> outlook_gpus = {64, 1024};
  double limit_efficiency = 0.8;
  UsefulWorkSettings goodput; // --gpu-mtbf-hours, --checkpoint-mode, --restart-overhead
};

// A 7e9-parameter model, 16,384 tokens per GPU per step (4 sequences of 4,096), bf16 gradients
// (2 bytes per parameter), no overlap of the all-reduce with compute, 4 bytes of input read per
// token (int32 token ids, kInputBytesPerToken; optional where storage was not measured),
// predicted to 1024 GPUs.
PredictionConfig default_training_step();

// The headline's GPU counts for a prediction horizon: 64 and the horizon itself (64 and 1024 by
// default), none beyond it.
std::vector<int> default_outlook_gpus(int predict_to);

struct PartOutlook {
  std::string suite, case_name;
  std::string label; // the configuration: "all_reduce bytes=32M dtype=float ..."
  std::string metric;
  int largest_measured_gpus = 0;
  std::optional<double> efficiency_at_largest; // measured
  std::optional<EfficiencyEstimate> limit;     // first count under the threshold
  std::vector<EfficiencyEstimate> outlook;     // at ReportOptions::outlook_gpus

  std::string name() const { return suite + "/" + case_name; }
};

// Every part with two or more GPU counts of efficiency, the one that limits first at the front;
// parts that never fall under the threshold follow, the lowest efficiency at the largest outlook
// count first.
std::vector<PartOutlook> rank_parts(const std::vector<FamilyReport>& families,
                                    const ReportOptions& options);

// A GPU below this share of its peers' median figure is named as the slowest.
inline constexpr double kStragglerShare = 0.95;

// A GPU slower than its peers in some measurement: synchronous work waits for it, so it caps
// scaling whatever the fitted laws say.
struct Straggler {
  std::string rank;               // "rank 5 (hgx-h200-01 device 5)"
  double share = 1;               // its figure / the median, the lowest seen
  std::vector<std::string> parts; // where, e.g. "compute/gemm on 8 GPUs"
};

// Over the rows of the curves shown, the slowest rank of each where it is under kStragglerShare
// of the median; one entry per rank, the slowest first.
std::vector<Straggler> find_stragglers(const std::vector<FamilyReport>& families);
// The measured training steps' slowest GPUs (by each rank's own GEMM rate in the step), added to
// `found` the same way, still slowest first.
void add_step_stragglers(const ResultsFile& results, std::vector<Straggler>& found);

// A rank that collectives waited for: the straggler their records name (curve_report.hpp's
// StragglerRow), one entry per rank.
struct WaitedFor {
  StragglerRank rank;
  int records = 0;         // records naming it
  double worst_ratio = 1;  // its lowest own time / the others' median
  std::string worst_where; // the record of that: "collectives/all_reduce bytes=32M ... on 16 GPUs"
};

// Over every family's straggler rows; the rank named most often first, then the largest wait.
std::vector<WaitedFor> find_waited_for(const std::vector<FamilyReport>& families);

// The document's worked example: 4,000 GPU-hours at $2.50 per GPU-hour.
inline constexpr double kExampleGpuHours = 4000;
inline constexpr double kExamplePrice = 2.5;

// What the lost efficiency costs at one GPU count.
struct CostOutlook {
  int gpus = 0;
  double efficiency = 0;
  double overhead = 0;                    // 1/E - 1
  std::optional<double> wall_hours;       // with gpu_hours (E <= 1)
  std::optional<double> cost, ideal_cost; // with gpu_hours and price (E <= 1)
};
CostOutlook cost_outlook(int gpus, double efficiency, const ReportOptions& options);

// The parts of the results the training-step prediction needs and that are missing:
// "compute/gemm", "collectives/all_reduce" (usable records only). storage/seq_read is not needed:
// without it the prediction leaves input reads out and says so.
std::vector<std::string> missing_prediction_parts(const ResultsFile& results);

struct Headline {
  double limit_efficiency = 0.8;
  std::vector<int> outlook_gpus;
  int horizon_gpus = 0;           // how far the parts and the step are predicted (--predict-to)
  std::vector<PartOutlook> parts; // ranked, see rank_parts
  std::vector<Straggler> stragglers;
  std::vector<WaitedFor> waited_for;
  std::vector<std::string> missing_parts; // for the prediction
  std::optional<Prediction> prediction;
  std::vector<StepTime> predicted;         // at outlook_gpus
  std::vector<CostOutlook> predicted_cost; // at outlook_gpus
  std::vector<PricingBasis> predicted_basis; // what each of `predicted` rests on
  std::string prediction_problem;          // why no prediction although no part is missing
  // Outlook counts the predicted step is not priced at (pricing_basis.hpp): the count and why.
  std::vector<std::pair<int, std::string>> predicted_declined;

  // The measured training step (workload/data_parallel_step), held against its prediction.
  std::optional<StepValidation> step;
  // The document's worked example priced from it: a job of priced_gpu_hours on
  // step_cost->gpus GPUs at priced_price per GPU-hour (4,000 and 2.50 unless --gpu-hours and
  // --price were given), at the efficiency measured there or predicted (step_cost_how says which).
  std::optional<CostOutlook> step_cost;
  std::string step_cost_how;
  // Why the measured step is not priced at the count asked for (across nodes, nothing measured
  // there and no --plan-link); empty where it is priced or cannot be predicted at all.
  std::string step_cost_declined;
  std::optional<PricingBasis> step_basis; // what step_cost rests on
  double priced_gpu_hours = 0, priced_price = 0;
  bool priced_by_default = false;

  // Goodput (analysis/useful_work.hpp) at every count the checkpoint, restore or start-up was
  // measured at and every priced count, ascending; or why it was not measured.
  std::vector<GoodputAtScale> goodput;
  std::string goodput_missing;
  // The scaling efficiency at each priced count (the measured step's, else the predicted one's),
  // the first priced count first; useful work = efficiency x goodput there.
  std::vector<std::pair<int, double>> priced_efficiency;
  const GoodputAtScale* goodput_at(int gpus) const;

  // The part that limits first, or null when no part falls under the threshold.
  const PartOutlook* limiting() const;
};

// `analysis`: the report's one analyse_scaling of `results`, which the step and the prediction
// read instead of extracting curves and fitting the ring again.
Headline build_headline(const ResultsFile& results, const std::string& source,
                        const ScalingAnalysis& analysis, const std::vector<FamilyReport>& families,
                        const ReportOptions& options);

} // namespace cb::report
