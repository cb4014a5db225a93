#pragma once
// Printing a CheckReport: a Markdown report for people and CI logs, JSON for machines (and for
// the history a dashboard or `check --history` reads: every case's run-level figures).
#include <nlohmann/json.hpp>
#include <string>

#include "verdicts/regression_check.hpp"

namespace cb {

struct CheckContext {
  CheckOptions options;
  bool allow_inconclusive = false;
};

// A case's figures in one line: "time 1.23 ms -> 1.36 ms (+10.2 %, p 1.2e-08, runs 5/5,
// detectable 3.1 %)" (`paired`: the pairs' count).
std::string check_case_figures(const CaseCheck& c, bool paired);

// The runs of each side, one table of every case, then each regression, inconclusive case and
// missing case named with its figures, then a last line "verdict: PASS|FAIL|INCONCLUSIVE ...".
std::string check_report_markdown(const CheckReport& report, const CheckContext& context);

// {verdict, regressions, improvements, inconclusive, unchanged, missing_in_baseline,
//  missing_in_current, baseline_runs, current_runs, threshold, alpha, power, paired,
//  allow_inconclusive}; each case carries its run figures (null where a run lacks the case).
nlohmann::json check_report_json(const CheckReport& report, const CheckContext& context);

// Exit codes of `check`: 0 pass, 1 regression, 4 inconclusive (0 when allowed).
inline constexpr int kCheckInconclusiveExit = 4;
int check_exit_code(const CheckReport& report, bool allow_inconclusive);

} // namespace cb
