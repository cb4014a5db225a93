#pragma once
// What the report says about each family (suite): the curves it shows (one case at fixed
// parameters, the largest problem size of each configuration), their rows by GPU count with the
// per-GPU spread, the fitted scaling laws and what they predict at larger GPU counts, the
// collectives' alpha-beta models, and the records that did not run.
#include <optional>
#include <string>
#include <vector>

#include "analysis/efficiency.hpp"
#include "analysis/scaling_fits.hpp"
#include "report/per_rank_spread.hpp"
#include "results/record.hpp"

namespace cb::report {

struct CurveRow {
  int gpus = 0;
  int nodes = 1;
  double value = 0; // the headline metric
  std::optional<double> efficiency;
  std::optional<PerRankSpread> spread;
  RecordStatus status = RecordStatus::ok; // ok | noisy
  double spike = 0;   // the record's p99 / median sample (0 when unknown)
  std::optional<StragglerRank> straggler; // the rank the record's collective waited for
};

// Scaling efficiency at a GPU count: measured where measured, else what a fitted law predicts.
struct EfficiencyEstimate {
  int gpus = 0;
  std::optional<double> efficiency;
  std::string from; // "measured", "USL", "Amdahl", or empty when nothing can say
  bool extrapolated = false;
};

struct CurveReport {
  CurveFits fits;
  std::optional<ScalingSeries> series; // absent for latency curves
  std::string fit_source;              // "fits section" or "computed"
  std::vector<CurveRow> rows;
  std::vector<EfficiencyEstimate> outlook; // at the report's outlook GPU counts

  const Curve& curve() const { return fits.curve; }
  // GPU counts with an efficiency beyond the base: 2 or more means the curve says how it scales.
  std::size_t scaling_points() const { return series ? series->n.size() : 0; }
  // "all_reduce bytes=32M dtype=float ..."
  std::string label() const;
};

// A straggler's own median time over the others' median (below 1: the others waited).
double straggler_ratio(const StragglerRank& s);

// Measured where the curve has the count, else the USL fitted to the aggregate (when it fitted),
// else Amdahl's law: E(N) = X(N) / (N X1) or S(N) / N.
EfficiencyEstimate efficiency_at(const CurveReport& curve, int gpus);

struct NotRunRecord {
  std::string case_name;
  nlohmann::json params;
  int gpus = 0;
  RecordStatus status = RecordStatus::skipped; // skipped | failed
  std::string reason;
};

// A record that names its straggler (collectives): where, and how much the others waited.
struct StragglerRow {
  std::string case_name;
  nlohmann::json params;
  int gpus = 0;
  int nodes = 1;
  StragglerRank straggler;
  double spike = 0; // the record's p99 / median sample
};

struct FamilyReport {
  std::string suite;
  std::vector<CurveReport> curves; // shown: the largest problem size of each configuration
  std::size_t curves_total = 0;    // all curves of the suite, at every size
  std::vector<RingAllReduceFit> ring_all_reduce;
  std::vector<HockneyFit> hockney;
  std::string alpha_beta_source; // "fits section" or "computed"
  std::vector<NotRunRecord> not_run;
  // Every usable record of the suite that names a straggler, the largest wait (the lowest own /
  // others' time) first.
  std::vector<StragglerRow> stragglers;
};

// Families in the order compute, links, collectives, storage, then any other suite as it first
// appears. Fits come from the results' fits section where it matches the records, else from
// `analysis` (analyse_scaling of the same results, made once for the whole report).
// `outlook_gpus`: where each curve's efficiency is predicted (e.g. 64 and 1024).
std::vector<FamilyReport> build_family_reports(const ResultsFile& results,
                                               const ScalingAnalysis& analysis,
                                               const std::vector<int>& outlook_gpus);

} // namespace cb::report
