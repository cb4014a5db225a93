#include "verdicts/regression_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "verdicts/report_text.hpp"

namespace cb {

const char* to_string(CaseOutcome outcome) {
  switch (outcome) {
  case CaseOutcome::regression:
    return "regression";
  case CaseOutcome::improvement:
    return "improvement";
  case CaseOutcome::unchanged:
    return "unchanged";
  case CaseOutcome::inconclusive:
    return "inconclusive";
  }
  return "unknown";
}

const char* to_string(CheckVerdict verdict) {
  switch (verdict) {
  case CheckVerdict::pass:
    return "pass";
  case CheckVerdict::regression:
    return "regression";
  case CheckVerdict::inconclusive:
    return "inconclusive";
  }
  return "unknown";
}

CaseCheck judge_case(const CaseKey& key, const ComparedMeasure& baseline,
                     const ComparedMeasure& current, const CheckOptions& options) {
  CaseCheck c;
  c.key = key;
  c.quantity = baseline.quantity;
  c.better = baseline.better;
  c.baseline_count = baseline.values.size();
  c.current_count = current.values.size();
  if (baseline.values.empty() || current.values.empty()) {
    c.baseline_median = c.current_median = c.change = c.p_value =
        std::numeric_limits<double>::quiet_NaN();
    c.outcome = CaseOutcome::inconclusive;
    c.note = "no values on one side";
    return c;
  }
  c.baseline_median = median(baseline.values);
  c.current_median = median(current.values);
  c.change = (c.current_median - c.baseline_median) / c.baseline_median;
  const MannWhitneyResult test = mann_whitney_u(baseline.values, current.values);
  c.p_value = test.p_value;
  c.method = test.method;

  if (c.baseline_count < options.min_samples || c.current_count < options.min_samples) {
    c.outcome = CaseOutcome::inconclusive;
    c.note = std::to_string(c.baseline_count) + " values in the baseline, " +
             std::to_string(c.current_count) + " in the current run; --min-samples is " +
             std::to_string(options.min_samples);
    return c;
  }
  if (!(c.baseline_median > 0) || !std::isfinite(c.change)) {
    c.outcome = CaseOutcome::inconclusive;
    c.note = "the baseline median is not positive: no relative change";
    return c;
  }
  // How much worse, as a fraction: positive when slower (time up, or throughput down).
  const double worse_by = c.better == Better::lower ? c.change : -c.change;
  const bool significant = c.p_value < options.alpha;
  if (worse_by > options.threshold) {
    if (significant) {
      c.outcome = CaseOutcome::regression;
    } else {
      c.outcome = CaseOutcome::inconclusive;
      c.note = "worse by " + format_change(worse_by).substr(1) + " but not significant (p " +
               format_p(c.p_value) + " >= alpha " + format_p(options.alpha) + ")";
      const double floor_p = mann_whitney_smallest_p(c.baseline_count, c.current_count);
      if (floor_p >= options.alpha) {
        c.note += "; these sample counts cannot reach p below " + format_p(floor_p);
      }
    }
  } else if (-worse_by > options.threshold && significant) {
    c.outcome = CaseOutcome::improvement;
  } else {
    c.outcome = CaseOutcome::unchanged;
  }
  return c;
}

std::size_t CheckReport::count(CaseOutcome outcome) const {
  return static_cast<std::size_t>(std::count_if(
      cases.begin(), cases.end(), [&](const CaseCheck& c) { return c.outcome == outcome; }));
}

CheckReport check_regressions(const ResultsFile& baseline, const ResultsFile& current,
                              const CheckOptions& options) {
  validate(options);
  const CaseIndex base_index = index_cases(baseline);
  const CaseIndex current_index = index_cases(current);
  const CaseMatch match = match_cases(base_index, current_index);

  CheckReport report;
  report.missing_in_current = match.only_in_a;
  report.missing_in_baseline = match.only_in_b;
  for (const auto& [base_case, current_case] : match.both) {
    const auto measures = common_measure(*base_case, *current_case);
    if (!measures) {
      CaseCheck c;
      c.key = base_case->key;
      c.quantity = "-";
      c.baseline_median = c.current_median = c.change = c.p_value =
          std::numeric_limits<double>::quiet_NaN();
      c.baseline_count = base_case->samples_s.size();
      c.current_count = current_case->samples_s.size();
      c.outcome = CaseOutcome::inconclusive;
      c.note = "no figure in common: samples on one side only and no shared headline metric";
      report.cases.push_back(std::move(c));
      continue;
    }
    CaseCheck c = judge_case(base_case->key, measures->first, measures->second, options);
    if (base_case->noisy || current_case->noisy) {
      const std::string which = base_case->noisy && current_case->noisy ? "both runs"
                                : base_case->noisy                      ? "the baseline"
                                                                        : "the current run";
      c.note += std::string(c.note.empty() ? "" : "; ") + "marked noisy in " + which;
    }
    report.cases.push_back(std::move(c));
  }

  if (report.count(CaseOutcome::regression) > 0) {
    report.verdict = CheckVerdict::regression;
  } else if (report.count(CaseOutcome::inconclusive) > 0) {
    report.verdict = CheckVerdict::inconclusive;
  } else {
    report.verdict = CheckVerdict::pass;
  }
  return report;
}

void validate(const CheckOptions& options) {
  if (!(options.threshold >= 0) || !std::isfinite(options.threshold)) {
    throw InputError("--threshold: must be a fraction >= 0 (0.05 = 5 %)");
  }
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw InputError("--alpha: must lie between 0 and 1 (e.g. 0.01)");
  }
  if (options.min_samples < 1)
    throw InputError("--min-samples: must be at least 1");
}

} // namespace cb
