#include "verdicts/check_report.hpp"

#include <cctype>
#include <cmath>

#include "verdicts/report_text.hpp"

namespace cb {
namespace {

using nlohmann::json;

json number_or_null(double value) {
  return std::isfinite(value) ? json(value) : json(nullptr);
}

json figures_json(const std::vector<double>& values) {
  json list = json::array();
  for (double v : values)
    list.push_back(number_or_null(v));
  return list;
}

json case_json(const CaseCheck& c) {
  json j = key_to_json(c.key);
  j["quantity"] = c.quantity;
  j["better"] = to_string(c.better);
  j["baseline_median"] = number_or_null(c.baseline_median);
  j["current_median"] = number_or_null(c.current_median);
  j["change_pct"] = number_or_null(c.change() * 100.0);
  j["worse_by_pct"] = number_or_null(c.worse_by * 100.0);
  j["test"] = to_string(c.test.test);
  j["p_value"] = c.test.test == RunTest::none ? json(nullptr) : json(c.test.p_value);
  j["spread_pct"] =
      c.test.test == RunTest::none ? json(nullptr) : json(std::expm1(c.test.spread) * 100.0);
  j["detectable_pct"] =
      c.test.test == RunTest::none ? json(nullptr) : json(c.test.detectable * 100.0);
  j["baseline_count"] = c.test.baseline_runs;
  j["current_count"] = c.test.current_runs;
  j["baseline_runs"] = figures_json(c.baseline_runs);
  j["current_runs"] = figures_json(c.current_runs);
  j["outcome"] = to_string(c.outcome);
  if (!c.note.empty())
    j["note"] = c.note;
  return j;
}

json missing_json(const MissingCase& m) {
  json j = key_to_json(m.key);
  if (!m.note.empty())
    j["note"] = m.note;
  return j;
}

std::string params_cell(const CaseKey& key) {
  const std::string text = describe_params(key.params);
  return text.empty() ? "-" : text;
}

std::string p_text(const CaseCheck& c) {
  return c.test.test == RunTest::none ? "-" : format_p(c.test.p_value);
}

std::string detectable_text(const CaseCheck& c) {
  return c.test.test == RunTest::none ? "-" : format_percent_capped(c.test.detectable);
}

std::string runs_cell(const CaseCheck& c, bool paired) {
  if (paired)
    return std::to_string(c.test.baseline_runs) + " pairs";
  return std::to_string(c.test.baseline_runs) + "/" + std::to_string(c.test.current_runs);
}

// "time 1.23 ms -> 1.36 ms (+10.2 %, p 1.2e-08, runs 5/5, detectable 3.1 %)"
std::string figures(const CaseCheck& c, bool paired) {
  return quantity_label(c.quantity) + " " + format_quantity(c.quantity, c.baseline_median) +
         " -> " + format_quantity(c.quantity, c.current_median) + " (" + format_change(c.change()) +
         ", p " + p_text(c) + ", runs " + runs_cell(c, paired) + ", detectable " +
         detectable_text(c) + ")";
}

void list_cases(std::string& out, const CheckReport& report, CaseOutcome outcome,
                const std::string& title, bool paired) {
  const std::size_t n = report.count(outcome);
  if (n == 0)
    return;
  out += "\n## " + title + " (" + std::to_string(n) + ")\n\n";
  for (const auto& c : report.cases) {
    if (c.outcome != outcome)
      continue;
    out += "- " + describe_case(c.key) + ": " + figures(c, paired);
    if (!c.note.empty())
      out += "; " + c.note;
    out += "\n";
  }
}

void list_missing(std::string& out, const std::vector<MissingCase>& missing,
                  const std::string& title) {
  if (missing.empty())
    return;
  out += "\n## " + title + " (" + std::to_string(missing.size()) + ")\n\n";
  for (const auto& m : missing) {
    out += "- " + describe_case(m.key) + (m.note.empty() ? "" : " (" + m.note + ")") + "\n";
  }
}

// "1 case", "3 cases"
std::string counted(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string upper(std::string text) {
  for (char& ch : text)
    ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return text;
}

// "a.json, b.json" or "a.json ... e.json (5 runs)"
std::string files_text(const std::vector<std::string>& files) {
  if (files.size() <= 2)
    return files.size() == 1 ? files[0] : files[0] + ", " + files[1];
  return files.front() + " ... " + files.back() + " (" + std::to_string(files.size()) + " runs)";
}

std::string rule_text(const CheckOptions& o) {
  const std::string test = o.paired ? "the paired t-test on each pair's log ratio"
                                    : "Welch's t-test on the log run figures";
  return "Each run gives one figure per case (the median of its samples, or of its headline "
         "metric); cases are judged on those run figures, never on the samples inside a run. A "
         "case regresses when it is worse by more than " +
         format_change(o.threshold).substr(1) + ", " + test + " gives p < " + format_p(o.alpha) +
         ", and the change is at least the smallest this runner detects (power " +
         format_p(o.power) + "). A case whose detectable change is above the threshold is " +
         "INCONCLUSIVE, as is one with a single run a side.\n\n";
}

} // namespace

std::string check_case_figures(const CaseCheck& c, bool paired) {
  return figures(c, paired);
}

std::string check_report_markdown(const CheckReport& report, const CheckContext& context) {
  const CheckOptions& o = context.options;
  std::string out = "# clusterbench check: " + files_text(report.current_files) +
                    " against baseline " + files_text(report.baseline_files) + "\n\n";
  out += rule_text(o);

  MarkdownTable table({"outcome", "suite", "case", "params", "gpus", "quantity", "baseline",
                       "current", "change", "p", "detectable", "runs base/cur"});
  for (const auto& c : report.cases) {
    table.add_row({upper(to_string(c.outcome)), c.key.suite, c.key.case_name, params_cell(c.key),
                   std::to_string(c.key.gpus), quantity_label(c.quantity),
                   format_quantity(c.quantity, c.baseline_median),
                   format_quantity(c.quantity, c.current_median), format_change(c.change()),
                   p_text(c), detectable_text(c), runs_cell(c, o.paired)});
  }
  out += table.str();

  list_cases(out, report, CaseOutcome::regression, "Regressions", o.paired);
  list_cases(out, report, CaseOutcome::inconclusive, "Inconclusive", o.paired);
  list_cases(out, report, CaseOutcome::improvement, "Improvements", o.paired);
  list_missing(out, report.missing_in_current, "Missing in the current run");
  list_missing(out, report.missing_in_baseline, "Missing in the baseline");

  const std::size_t regressions = report.count(CaseOutcome::regression);
  const std::size_t inconclusive = report.count(CaseOutcome::inconclusive);
  out += "\n";
  switch (report.verdict) {
  case CheckVerdict::regression:
    out += "verdict: FAIL - " + counted(regressions, "regression");
    break;
  case CheckVerdict::inconclusive:
    out += "verdict: INCONCLUSIVE - " + counted(inconclusive, "case") + " could not be judged" +
           (context.allow_inconclusive ? " (allowed by --allow-inconclusive)"
                                       : "; give more runs a side or pass --allow-inconclusive");
    break;
  case CheckVerdict::pass:
    out += "verdict: PASS";
    break;
  }
  out += " (" + counted(report.cases.size(), "case") + " compared, " +
         std::to_string(report.count(CaseOutcome::improvement)) + " improved, " +
         std::to_string(report.missing_in_current.size() + report.missing_in_baseline.size()) +
         " missing)\n";
  return out;
}

json check_report_json(const CheckReport& report, const CheckContext& context) {
  json j = {
      {"verdict", to_string(report.verdict)}, {"regressions", json::array()},
      {"improvements", json::array()},        {"inconclusive", json::array()},
      {"unchanged", json::array()},           {"missing_in_baseline", json::array()},
      {"missing_in_current", json::array()},  {"baseline_runs", report.baseline_files},
      {"current_runs", report.current_files}, {"threshold", context.options.threshold},
      {"alpha", context.options.alpha},       {"power", context.options.power},
      {"paired", context.options.paired},     {"allow_inconclusive", context.allow_inconclusive}};
  for (const auto& c : report.cases) {
    const char* list = c.outcome == CaseOutcome::regression     ? "regressions"
                       : c.outcome == CaseOutcome::improvement  ? "improvements"
                       : c.outcome == CaseOutcome::inconclusive ? "inconclusive"
                                                                : "unchanged";
    j[list].push_back(case_json(c));
  }
  for (const auto& m : report.missing_in_baseline)
    j["missing_in_baseline"].push_back(missing_json(m));
  for (const auto& m : report.missing_in_current)
    j["missing_in_current"].push_back(missing_json(m));
  return j;
}

int check_exit_code(const CheckReport& report, bool allow_inconclusive) {
  switch (report.verdict) {
  case CheckVerdict::regression:
    return 1;
  case CheckVerdict::inconclusive:
    return allow_inconclusive ? 0 : kCheckInconclusiveExit;
  case CheckVerdict::pass:
    return 0;
  }
  return 1;
}

} // namespace cb
