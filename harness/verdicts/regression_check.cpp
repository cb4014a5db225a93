#include "verdicts/regression_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "verdicts/google_benchmark_json.hpp"
#include "verdicts/report_text.hpp"

namespace cb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> finite(const std::vector<double>& values) {
  std::vector<double> out;
  for (double v : values) {
    if (std::isfinite(v))
      out.push_back(v);
  }
  return out;
}

double median_or_nan(const std::vector<double>& values) {
  return values.empty() ? kNaN : median(values);
}

std::string percent(double fraction) {
  return format_percent_capped(fraction);
}

// The measured cases of a side, in order of first appearance, with the reason a run gives for a
// case it skipped or failed.
struct SideCases {
  std::vector<CaseKey> order;
  std::map<std::string, std::string> unmeasured_note;
  bool has(const std::string& id) const {
    return std::any_of(order.begin(), order.end(), [&](const CaseKey& k) { return k.id() == id; });
  }
};

SideCases cases_of(const RunSide& side) {
  SideCases cases;
  std::map<std::string, bool> seen;
  for (const auto& run : side.runs) {
    for (const auto& c : run.measured) {
      if (seen.emplace(c.key.id(), true).second)
        cases.order.push_back(c.key);
    }
    for (const auto& u : run.unmeasured) {
      cases.unmeasured_note.emplace(u.key.id(), to_string(u.status) +
                                                    (u.reason.empty() ? "" : ": " + u.reason));
    }
  }
  return cases;
}

std::vector<MissingCase> missing_from(const SideCases& from, const SideCases& other,
                                      const std::map<std::string, bool>& other_ids) {
  std::vector<MissingCase> missing;
  for (const auto& key : from.order) {
    const std::string id = key.id();
    if (other_ids.count(id))
      continue;
    auto why = other.unmeasured_note.find(id);
    missing.push_back({key, why == other.unmeasured_note.end() ? "" : why->second});
  }
  return missing;
}

std::map<std::string, bool> ids_of(const SideCases& cases) {
  std::map<std::string, bool> ids;
  for (const auto& key : cases.order)
    ids.emplace(key.id(), true);
  return ids;
}

// The runs that count: every finite figure, or for paired runs the pairs with both.
void usable_runs(const CaseCheck& c, bool paired, std::vector<double>& base,
                 std::vector<double>& cur) {
  if (!paired) {
    base = finite(c.baseline_runs);
    cur = finite(c.current_runs);
    return;
  }
  const std::size_t n = std::min(c.baseline_runs.size(), c.current_runs.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isfinite(c.baseline_runs[i]) && std::isfinite(c.current_runs[i])) {
      base.push_back(c.baseline_runs[i]);
      cur.push_back(c.current_runs[i]);
    }
  }
}

std::string runs_text(const RunLevelResult& t, bool paired) {
  if (paired)
    return std::to_string(t.baseline_runs) + " pairs";
  return std::to_string(t.baseline_runs) + "/" + std::to_string(t.current_runs) + " runs";
}

} // namespace

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

double CaseCheck::change() const {
  if (!std::isfinite(worse_by))
    return kNaN;
  const double worse_log = std::log1p(worse_by);
  return std::expm1(better == Better::lower ? worse_log : -worse_log);
}

CaseCheck judge_case(const CaseKey& key, const std::string& quantity, Better better,
                     std::vector<double> baseline_runs, std::vector<double> current_runs,
                     const CheckOptions& options) {
  CaseCheck c;
  c.key = key;
  c.quantity = quantity;
  c.better = better;
  c.baseline_runs = std::move(baseline_runs);
  c.current_runs = std::move(current_runs);
  std::vector<double> base, cur;
  usable_runs(c, options.paired, base, cur);
  c.baseline_median = median_or_nan(finite(c.baseline_runs));
  c.current_median = median_or_nan(finite(c.current_runs));
  c.worse_by = kNaN;
  c.test.baseline_runs = base.size();
  c.test.current_runs = cur.size();
  const auto not_positive = [](double v) { return !(v > 0); };
  if (std::any_of(base.begin(), base.end(), not_positive) ||
      std::any_of(cur.begin(), cur.end(), not_positive)) {
    c.note = "a run's figure is not positive: no relative change";
    return c;
  }
  // Runs checked against themselves: the figures are the same run for run, so there is no change
  // and no drift between the sides to mistake for one, however many runs there are.
  if (!base.empty() && base == cur) {
    c.worse_by = 0;
    c.outcome = CaseOutcome::unchanged;
    c.note = "the same run figures on both sides (runs checked against themselves)";
    return c;
  }
  const RunLevelOptions run_options{options.alpha, options.power};
  c.test = options.paired ? compare_paired_runs(base, cur, run_options)
                          : compare_runs(base, cur, run_options);
  const double worse_log = better == Better::lower ? c.test.log_change : -c.test.log_change;
  c.worse_by = base.empty() || cur.empty() ? kNaN : std::expm1(worse_log);
  if (c.test.test == RunTest::none) {
    c.note = c.test.why_none;
    return c;
  }
  const double threshold_log = std::log1p(options.threshold);
  const double detectable_log = std::log1p(c.test.detectable);
  const bool significant = c.test.p_value < options.alpha;
  if (std::fabs(worse_log) > threshold_log && significant &&
      std::fabs(worse_log) >= detectable_log) {
    c.outcome = worse_log > 0 ? CaseOutcome::regression : CaseOutcome::improvement;
  } else if (c.test.detectable > options.threshold) {
    c.note = "this runner can only detect changes above " + percent(c.test.detectable) +
             " here (run-to-run spread " + percent(std::expm1(c.test.spread)) + ", " +
             runs_text(c.test, options.paired) + ", alpha " + format_p(options.alpha) + ", power " +
             format_p(options.power) + "), more than --threshold " + percent(options.threshold) +
             ": neither a pass nor a failure; more runs or a " + "quieter machine lower it";
  } else if (worse_log > threshold_log) {
    c.note = "worse by " + percent(c.worse_by) + " but not significant (p " +
             format_p(c.test.p_value) + " >= alpha " + format_p(options.alpha) + ")";
  } else {
    c.outcome = CaseOutcome::unchanged;
  }
  return c;
}

std::size_t CheckReport::count(CaseOutcome outcome) const {
  return static_cast<std::size_t>(std::count_if(
      cases.begin(), cases.end(), [&](const CaseCheck& c) { return c.outcome == outcome; }));
}

CheckReport check_regressions(const RunSide& baseline, const RunSide& current,
                              const CheckOptions& options) {
  validate(options);
  CheckReport report;
  for (const auto& run : baseline.runs)
    report.baseline_files.push_back(run.path);
  for (const auto& run : current.runs)
    report.current_files.push_back(run.path);
  const SideCases base_cases = cases_of(baseline), current_cases = cases_of(current);
  const auto base_ids = ids_of(base_cases), current_ids = ids_of(current_cases);
  report.missing_in_current = missing_from(base_cases, current_cases, current_ids);
  report.missing_in_baseline = missing_from(current_cases, base_cases, base_ids);

  for (const CaseKey& key : base_cases.order) {
    const std::string id = key.id();
    if (!current_ids.count(id))
      continue;
    std::vector<const CaseFigures*> present;
    bool noisy_base = false, noisy_current = false;
    for (const auto* side : {&baseline, &current}) {
      for (const auto& run : side->runs) {
        if (const CaseFigures* f = run.find(id)) {
          present.push_back(f);
          (side == &baseline ? noisy_base : noisy_current) |= f->noisy;
        }
      }
    }
    const std::string quantity = shared_quantity(present);
    auto figures = [&](const RunSide& side) {
      std::vector<double> values;
      for (const auto& run : side.runs) {
        const CaseFigures* f = run.find(id);
        values.push_back(f && !quantity.empty() ? figure_of(*f, quantity) : kNaN);
      }
      return values;
    };
    CaseCheck c = judge_case(key, quantity.empty() ? "-" : quantity, better_of(quantity),
                             figures(baseline), figures(current), options);
    if (quantity.empty()) {
      c.outcome = CaseOutcome::inconclusive;
      c.note = "no figure in common: samples in some runs only and no shared headline metric";
    }
    // --benchmark_repetitions ran in one process: they are samples of one run, not runs.
    if (key.suite == kGoogleBenchmarkSuite && c.test.test == RunTest::none) {
      c.note += std::string(c.note.empty() ? "" : "; ") +
                "a Google Benchmark file is one run (its repetitions shared one process): run the "
                "benchmark several times for several runs";
    }
    if (noisy_base || noisy_current) {
      const std::string which = noisy_base && noisy_current ? "both sides"
                                : noisy_base                ? "the baseline"
                                                            : "the current side";
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
  if (!(options.power > 0 && options.power < 1))
    throw InputError("--power: must lie between 0 and 1 (e.g. 0.8)");
}

} // namespace cb
