#pragma once
// The gate's statistics on run-level figures: one figure per run (the run's median of a case),
// compared on a log scale, so that a change is a ratio and the spread a relative one.
//
// Samples inside one run share that run's machine state (clock and power states, placement,
// neighbours on a shared runner), so they are not independent and their spread is not the
// spread that decides whether two builds differ: the run is the unit of replication (Kalibera and
// Jones, "Rigorous Benchmarking in Reasonable Time", ISMM 2013). So each run gives one figure,
// and the tests below see only those figures:
//  - independent runs: Welch's t-test on the log figures (Welch 1947), two-sided; with one run on
//    the current side, the new run is held against the baseline's spread (the t-test of a new
//    observation against a sample's prediction interval, df = n_baseline - 1);
//  - paired runs (baseline and current alternated on one machine): the paired t-test on the
//    per-pair log ratios, so drift shared by a pair cancels.
// The smallest detectable change is the usual power formula for those tests (e.g. Cohen,
// Statistical Power Analysis, 1988; van Belle, Statistical Rules of Thumb, 2.4): the log change
// delta with (t_{1-alpha/2} + t_{power}) * standard error = delta, the standard error taken from
// the baseline's run-to-run spread (or the pairs' spread), df of that spread.
#include <cstddef>
#include <string>
#include <vector>

namespace cb {

enum class RunTest { none, welch, against_baseline_spread, paired };
const char* to_string(RunTest test);

struct RunLevelOptions {
  double alpha = 0.01; // two-sided significance level
  double power = 0.8;  // the power at which the detectable change is stated
};

struct RunLevelResult {
  RunTest test = RunTest::none;
  std::size_t baseline_runs = 0, current_runs = 0; // runs (pairs: both equal the pairs used)
  double log_change = 0; // mean log(current) - mean log(baseline), or mean per-pair log ratio
  double change = 0;     // exp(log_change) - 1
  double spread = 0;     // run-to-run SD of the log figures the standard error comes from
  double p_value = 1;    // two-sided
  double detectable = 0; // smallest relative change (exp(delta) - 1) detected with `power`
  std::string why_none;  // when test is none: why no test could be made
};

// Figures must be positive (times, rates); the caller checks. Fewer than two runs on the
// baseline side (or fewer than two pairs) gives test none with the reason.
RunLevelResult compare_runs(const std::vector<double>& baseline, const std::vector<double>& current,
                            const RunLevelOptions& options);
// `baseline[i]` and `current[i]` were measured one after the other; sizes must be equal.
RunLevelResult compare_paired_runs(const std::vector<double>& baseline,
                                   const std::vector<double>& current,
                                   const RunLevelOptions& options);

// The reason given when each side has a single run.
inline constexpr const char* kOneRunASide =
    "one run a side cannot separate a change from the machine's run-to-run drift";

} // namespace cb
