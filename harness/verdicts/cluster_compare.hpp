#pragma once
// Two clusters (or two runs) side by side: what differs in their environment, how each matched
// case compares (medians, ratio with a bootstrap interval, significance), and how each scales
// (efficiency and the fitted USL and Amdahl models).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/amdahl.hpp"
#include "analysis/usl.hpp"
#include "results/record.hpp"
#include "verdicts/bootstrap.hpp"
#include "verdicts/case_matching.hpp"
#include "verdicts/mann_whitney.hpp"

namespace cb {

struct EnvironmentRow {
  std::string field; // "GPU model", "driver", "nodes", ...
  std::string a, b;  // "-" when the file does not say
  bool differs = false;
};

// GPU model (from run.hosts[].devices[].name), node and GPU counts, backend, launcher, tool and
// library versions (run.versions), then the GPU and node counts the records cover.
std::vector<EnvironmentRow> environment_difference(const ResultsFile& a, const ResultsFile& b);

struct CaseContrast {
  CaseKey key;
  std::string metric;                // headline metric shown, empty when the sides share none
  double a_metric = 0, b_metric = 0; // medians over records; NaN when absent
  double a_time_s = 0, b_time_s = 0; // median seconds per operation; NaN without samples
  std::string basis;                 // the quantity the ratio and the test use (time_s or a metric)
  std::size_t a_count = 0, b_count = 0;
  // B relative to A as throughput (speed): > 1 means B is faster. For times that is
  // median(A) / median(B); for a throughput metric median(B) / median(A).
  RatioInterval speed;
  double p_value = 1;
  PValueMethod method = PValueMethod::asymptotic;
  bool significant = false; // p < the significance level, with enough values on both sides
  bool too_few = false;     // fewer than CompareOptions::min_samples values on a side
  // Runs a side that measured the case. With at least two a side (contrast_across_runs), the
  // interval resamples run figures and p is Welch's t on their logs: they cover the run-to-run
  // drift. Otherwise they resample the samples of one run, and cover within-run noise only.
  std::size_t a_runs = 1, b_runs = 1;
  bool across_runs = false;
};

struct EfficiencyRow {
  int gpus = 0;
  std::optional<double> a, b;
};

struct EfficiencyContrast {
  std::string suite, case_name, metric;
  nlohmann::json params;
  int base_gpus = 0; // 1 for aggregate throughputs, 2 for collectives (busbw)
  std::vector<EfficiencyRow> rows;
};

// The scaling laws fitted to one side's curve, as `clusterbench fit` fits them
// (analysis/scaling_fits): absent where the side has no throughput series to fit. A fit that
// produced no numbers is present with ok = false and its warnings saying why.
struct ScalingModels {
  std::optional<UslFit> usl; // non-linear least squares
  std::optional<AmdahlFit> amdahl;
};

// Both sides' models of one curve: one per entry of `efficiency`, in the same order.
struct ModelContrast {
  std::string suite, case_name, metric;
  nlohmann::json params;
  ScalingModels a, b;
};

struct ClusterComparison {
  std::vector<EnvironmentRow> environment;
  std::vector<CaseContrast> cases; // in A's order, only cases with a figure both sides share
  std::vector<EfficiencyContrast> efficiency;
  std::vector<ModelContrast> models; // models[i] belongs to efficiency[i]
  std::vector<MissingCase> only_in_a, only_in_b;
};

struct CompareOptions {
  double significance = 0.05;
  // Fewer values on a side say nothing of run-to-run spread (one imported figure against a run's
  // samples): never significant, as `check` calls them inconclusive (regression_check.hpp).
  std::size_t min_samples = 5;
  BootstrapOptions bootstrap;
};

// An empty `cases` means the files have nothing in common; the caller reports it.
ClusterComparison compare_clusters(const ResultsFile& a, const ResultsFile& b,
                                   const CompareOptions& options = {});

CaseContrast contrast_case(const MeasuredCase& a, const MeasuredCase& b,
                           const CompareOptions& options);

} // namespace cb
