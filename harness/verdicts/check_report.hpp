#pragma once
// Printing a CheckReport: a Markdown report for people and CI logs, JSON for machines.
#include <nlohmann/json.hpp>
#include <string>

#include "verdicts/regression_check.hpp"

namespace cb {

struct CheckContext {
  std::string baseline_path;
  std::string current_path;
  CheckOptions options;
  bool allow_inconclusive = false;
};

// A case's figures in one line: "time 1.23 ms -> 1.36 ms (+10.2 %, p 1.2e-08, n 20/20)".
std::string check_case_figures(const CaseCheck& c);

// One table of every case, then each regression, inconclusive case and missing case named with
// its figures, then a last line "verdict: PASS|FAIL|INCONCLUSIVE ...".
std::string check_report_markdown(const CheckReport& report, const CheckContext& context);

// {verdict, regressions, improvements, inconclusive, unchanged, missing_in_baseline,
//  missing_in_current, baseline, current, threshold, alpha, min_samples}
nlohmann::json check_report_json(const CheckReport& report, const CheckContext& context);

// The exit code: 0 pass, 1 regression, 1 inconclusive unless allowed.
int check_exit_code(const CheckReport& report, bool allow_inconclusive);

} // namespace cb
