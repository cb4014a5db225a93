#pragma once
// The CI gate's decision, case by case: is the current run worse than the baseline by more than
// the threshold, and is that difference more than noise?
#include <cstddef>
#include <string>
#include <vector>

#include "results/record.hpp"
#include "verdicts/case_matching.hpp"
#include "verdicts/mann_whitney.hpp"

namespace cb {

struct CheckOptions {
  double threshold = 0.05;     // relative change of medians that counts
  double alpha = 0.01;         // significance level of the Mann-Whitney U test
  std::size_t min_samples = 5; // fewer on either side: inconclusive, never a silent pass
};

enum class CaseOutcome { regression, improvement, unchanged, inconclusive };
const char* to_string(CaseOutcome outcome);

struct CaseCheck {
  CaseKey key;
  std::string quantity; // time_s or a headline metric
  Better better = Better::lower;
  std::size_t baseline_count = 0, current_count = 0;
  double baseline_median = 0, current_median = 0;
  double change = 0; // (current - baseline) / baseline of the compared quantity
  double p_value = 1;
  PValueMethod method = PValueMethod::asymptotic;
  CaseOutcome outcome = CaseOutcome::inconclusive;
  std::string note; // why inconclusive, or what else the reader should know (noisy, ...)
};

// Judges one case:
//  - fewer than min_samples on either side: inconclusive;
//  - worse by more than the threshold: a regression when p < alpha, else inconclusive (a change
//    that large which the samples cannot tell from noise must not pass silently);
//  - better by more than the threshold with p < alpha: an improvement, reported;
//  - otherwise unchanged.
CaseCheck judge_case(const CaseKey& key, const ComparedMeasure& baseline,
                     const ComparedMeasure& current, const CheckOptions& options);

enum class CheckVerdict { pass, regression, inconclusive };
const char* to_string(CheckVerdict verdict);

struct CheckReport {
  std::vector<CaseCheck> cases; // in the baseline's order
  std::vector<MissingCase> missing_in_baseline, missing_in_current;
  CheckVerdict verdict = CheckVerdict::pass;
  std::size_t count(CaseOutcome outcome) const;
};

// Matches the two files and judges every case in both. The verdict is `regression` when any case
// regressed, else `inconclusive` when any case was, else `pass`; missing cases are listed, and do
// not decide it. An empty `cases` means the files have nothing in common; the caller reports it.
CheckReport check_regressions(const ResultsFile& baseline, const ResultsFile& current,
                              const CheckOptions& options);

// Throws InputError naming the option when a value is out of range.
void validate(const CheckOptions& options);

} // namespace cb
