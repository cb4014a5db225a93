#include "exporters/check_junit.hpp"

#include "core/format.hpp"

namespace cb {
namespace {

// An option's value as given: 0.05, 0.01.
std::string option_text(double value) {
  return format_figure_compact(value, 6);
}

// The runs of one side, comma-separated, as the report's header lists them.
std::string files_property(const std::vector<std::string>& files) {
  std::string text;
  for (const auto& file : files)
    text += (text.empty() ? "" : ", ") + file;
  return text;
}

// "collectives.all_reduce": CI systems show the class as the test's group.
std::string class_of(const CaseKey& key) {
  return key.suite + "." + key.case_name;
}

JUnitCase judged_case(const CaseCheck& c, bool paired) {
  JUnitCase t;
  t.classname = class_of(c.key);
  t.name = describe_case(c.key);
  const std::string figures = check_case_figures(c, paired);
  switch (c.outcome) {
  case CaseOutcome::regression:
    t.result = JUnitResult::failure;
    t.type = "regression";
    t.message = "slower than the baseline: " + figures;
    t.details = figures + (c.note.empty() ? "" : "\n" + c.note);
    break;
  case CaseOutcome::inconclusive:
    t.result = JUnitResult::skipped;
    t.message = "INCONCLUSIVE: " + (c.note.empty() ? figures : c.note + "; " + figures);
    break;
  case CaseOutcome::improvement:
  case CaseOutcome::unchanged:
    t.details =
        std::string(to_string(c.outcome)) + ": " + figures + (c.note.empty() ? "" : "\n" + c.note);
    break;
  }
  return t;
}

JUnitCase missing_case(const MissingCase& m, const std::string& where) {
  JUnitCase t;
  t.classname = class_of(m.key);
  t.name = describe_case(m.key);
  t.result = JUnitResult::skipped;
  t.message = "measured only in the " + where + (m.note.empty() ? "" : " (" + m.note + ")");
  return t;
}

} // namespace

JUnitSuite check_junit_suite(const CheckReport& report, const CheckContext& context) {
  JUnitSuite suite;
  suite.name = "clusterbench check";
  suite.properties = {{"baseline", files_property(report.baseline_files)},
                      {"current", files_property(report.current_files)},
                      {"threshold", option_text(context.options.threshold)},
                      {"alpha", option_text(context.options.alpha)},
                      {"power", option_text(context.options.power)},
                      {"paired", context.options.paired ? "true" : "false"},
                      {"verdict", to_string(report.verdict)}};
  for (const auto& c : report.cases)
    suite.cases.push_back(judged_case(c, context.options.paired));
  for (const auto& m : report.missing_in_current)
    suite.cases.push_back(missing_case(m, "baseline"));
  for (const auto& m : report.missing_in_baseline)
    suite.cases.push_back(missing_case(m, "current run"));
  return suite;
}

std::string check_junit_xml(const CheckReport& report, const CheckContext& context) {
  return junit_xml("clusterbench check", {check_junit_suite(report, context)},
                   "check of " + std::to_string(report.current_files.size()) + " run(s) against " +
                       std::to_string(report.baseline_files.size()) +
                       " baseline run(s): " + to_string(report.verdict));
}

} // namespace cb
