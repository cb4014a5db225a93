#pragma once
// The CI gate's decision, case by case, on run-level figures: is the current build worse than the
// baseline by more than the threshold, by more than the machine's run-to-run spread explains, and
// could this runner have seen a change of the threshold's size at all? (run_level_test.hpp has
// the statistics and their sources; docs/REGRESSION_GATE.md the reasoning.)
#include <cstddef>
#include <string>
#include <vector>

#include "verdicts/case_matching.hpp"
#include "verdicts/run_figures.hpp"
#include "verdicts/run_level_test.hpp"

namespace cb {

struct CheckOptions {
  double threshold = 0.05; // relative change that counts (a ratio: 0.05 = 5 % slower)
  double alpha = 0.01;     // two-sided significance level of the run-level t-test
  double power = 0.8;      // the power at which the smallest detectable change is stated
  bool paired = false;     // baseline run i and current run i were measured back to back
};

enum class CaseOutcome { regression, improvement, unchanged, inconclusive };
const char* to_string(CaseOutcome outcome);

// One case's verdict with the figures that decided it (every printer reads only this).
struct CaseCheck {
  CaseKey key;
  std::string quantity; // time_s or a headline metric
  Better better = Better::lower;
  // Each run's figure of the quantity, in the order the runs were given; NaN where that run did
  // not measure the case. The tests use the finite ones (paired: the pairs with both).
  std::vector<double> baseline_runs, current_runs;
  double baseline_median = 0, current_median = 0; // medians of the run figures
  // How much worse, as a ratio minus one: positive when slower (time up, or a rate down by the
  // same factor); from the run-level test, or from the medians where no test could be made.
  double worse_by = 0;
  RunLevelResult test;
  CaseOutcome outcome = CaseOutcome::inconclusive;
  std::string note;      // why inconclusive, or what else the reader should know (noisy, ...)
  double change() const; // relative change of the quantity itself: + is up
};

// Judges one case from its run figures (NaN entries are runs without it):
//  - the same figures on both sides, run for run (runs checked against themselves): unchanged;
//  - no run-level test possible (one run a side, one baseline run, ...): inconclusive, why;
//  - worse (or better) by more than the threshold, p < alpha and at least the detectable change:
//    a regression (an improvement);
//  - otherwise, a detectable change above the threshold: inconclusive, this runner cannot see a
//    change of the threshold's size, neither a pass nor a failure;
//  - worse by more than the threshold but not significant: inconclusive;
//  - otherwise unchanged.
CaseCheck judge_case(const CaseKey& key, const std::string& quantity, Better better,
                     std::vector<double> baseline_runs, std::vector<double> current_runs,
                     const CheckOptions& options);

enum class CheckVerdict { pass, regression, inconclusive };
const char* to_string(CheckVerdict verdict);

struct CheckReport {
  std::vector<std::string> baseline_files, current_files;
  std::vector<CaseCheck> cases; // in the order of first appearance on the baseline side
  std::vector<MissingCase> missing_in_baseline, missing_in_current;
  CheckVerdict verdict = CheckVerdict::pass;
  std::size_t count(CaseOutcome outcome) const;
};

// Matches the two sides and judges every case measured on both. The verdict is `regression` when
// any case regressed, else `inconclusive` when any case was, else `pass`; missing cases are
// listed, and do not decide it. An empty `cases` means the sides have nothing in common.
CheckReport check_regressions(const RunSide& baseline, const RunSide& current,
                              const CheckOptions& options);

// Throws InputError naming the option when a value is out of range.
void validate(const CheckOptions& options);

} // namespace cb
