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

json case_json(const CaseCheck& c) {
  json j = key_to_json(c.key);
  j["quantity"] = c.quantity;
  j["better"] = to_string(c.better);
  j["baseline_median"] = number_or_null(c.baseline_median);
  j["current_median"] = number_or_null(c.current_median);
  j["change_pct"] = number_or_null(c.change * 100.0);
  j["p_value"] = number_or_null(c.p_value);
  j["p_method"] = to_string(c.method);
  j["baseline_count"] = c.baseline_count;
  j["current_count"] = c.current_count;
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

void list_cases(std::string& out, const CheckReport& report, CaseOutcome outcome,
                const std::string& title) {
  const std::size_t n = report.count(outcome);
  if (n == 0)
    return;
  out += "\n## " + title + " (" + std::to_string(n) + ")\n\n";
  for (const auto& c : report.cases) {
    if (c.outcome != outcome)
      continue;
    out += "- " + describe_case(c.key) + ": " + check_case_figures(c);
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

} // namespace

std::string check_case_figures(const CaseCheck& c) {
  return quantity_label(c.quantity) + " " + format_quantity(c.quantity, c.baseline_median) +
         " -> " + format_quantity(c.quantity, c.current_median) + " (" + format_change(c.change) +
         ", p " + format_p(c.p_value) + ", n " + std::to_string(c.baseline_count) + "/" +
         std::to_string(c.current_count) + ")";
}

std::string check_report_markdown(const CheckReport& report, const CheckContext& context) {
  const CheckOptions& o = context.options;
  std::string out = "# clusterbench check: " + context.current_path + " against baseline " +
                    context.baseline_path + "\n\n";
  out += "A case regresses when it is worse by more than " + format_change(o.threshold).substr(1) +
         " (change of medians) and the Mann-Whitney U test gives p < " + format_p(o.alpha) +
         "; fewer than " + std::to_string(o.min_samples) + " values on a side is inconclusive.\n\n";

  MarkdownTable table({"outcome", "suite", "case", "params", "gpus", "quantity", "baseline",
                       "current", "change", "p", "n base/cur"});
  for (const auto& c : report.cases) {
    table.add_row({upper(to_string(c.outcome)), c.key.suite, c.key.case_name, params_cell(c.key),
                   std::to_string(c.key.gpus), quantity_label(c.quantity),
                   format_quantity(c.quantity, c.baseline_median),
                   format_quantity(c.quantity, c.current_median), format_change(c.change),
                   format_p(c.p_value),
                   std::to_string(c.baseline_count) + "/" + std::to_string(c.current_count)});
  }
  out += table.str();

  list_cases(out, report, CaseOutcome::regression, "Regressions");
  list_cases(out, report, CaseOutcome::inconclusive, "Inconclusive");
  list_cases(out, report, CaseOutcome::improvement, "Improvements");
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
                                       : "; rerun with more samples or pass --allow-inconclusive");
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
  json j = {{"verdict", to_string(report.verdict)},
            {"regressions", json::array()},
            {"improvements", json::array()},
            {"inconclusive", json::array()},
            {"unchanged", json::array()},
            {"missing_in_baseline", json::array()},
            {"missing_in_current", json::array()},
            {"baseline", context.baseline_path},
            {"current", context.current_path},
            {"threshold", context.options.threshold},
            {"alpha", context.options.alpha},
            {"min_samples", context.options.min_samples},
            {"allow_inconclusive", context.allow_inconclusive}};
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
    return allow_inconclusive ? 0 : 1;
  case CheckVerdict::pass:
    return 0;
  }
  return 1;
}

} // namespace cb
