#include "exporters/qualify_junit.hpp"

#include "core/format.hpp"
#include "exporters/exported_parts.hpp"
#include "qualify/culprits_report.hpp"
#include "qualify/qualify_report.hpp"

namespace cb {
namespace {

JUnitResult result_of(Verdict v) {
  switch (v) {
  case Verdict::pass:
    return JUnitResult::passed;
  case Verdict::fail:
    return JUnitResult::failure;
  case Verdict::inconclusive:
    return JUnitResult::skipped;
  }
  return JUnitResult::skipped;
}

JUnitCase row_case(const CheckRow& row) {
  JUnitCase t;
  t.classname = "qualify.checks." + row.check.id;
  t.name = row.check.id + (row.record.empty() ? "" : " on " + row.record);
  t.result = result_of(row.verdict);
  const std::string line = describe_check_row(row);
  if (t.result == JUnitResult::passed) {
    t.details = line;
  } else {
    t.message = line;
    t.type = "below spec";
    t.details = line + (row.check.source.empty() ? "" : "\nsource: " + row.check.source);
  }
  return t;
}

JUnitCase fleet_case(const QualifyReport& report) {
  JUnitCase t;
  t.classname = "qualify.fleet";
  t.name = "fleet";
  t.result = result_of(*report.fleet_verdict);
  const FleetReport& f = report.fleet;
  const std::string line =
      std::string(verdict_name(*report.fleet_verdict)) + ": " + culprits_summary(report.culprits) +
      ", " + std::to_string(f.fleets_examined) + " fleets examined, " +
      std::to_string(f.failing()) + " outliers (evidence), " +
      std::to_string(f.warnings() + f.note_warnings() + report.culprits.notes.size()) + " warnings";
  t.message = t.result == JUnitResult::passed ? "" : line;
  t.type = "culprit";
  t.details = line;
  return t;
}

JUnitCase culprit_case(const FleetCulprit& c) {
  JUnitCase t;
  t.classname = "qualify.culprits." + c.kind;
  t.name = culprit_label(c);
  t.result = JUnitResult::failure;
  t.type = "culprit";
  std::string records;
  for (const auto& record : c.records)
    records += (records.empty() ? "" : ", ") + record;
  t.message = t.name + ": " + format_ratio(c.factor) + "x typical on " + std::to_string(c.figures) +
              " figures (" + std::to_string(c.slow_figures) + " slow)" +
              (records.empty() ? "" : "; shown by " + records);
  t.details = t.message;
  return t;
}

} // namespace

std::vector<JUnitSuite> qualify_junit_suites(const QualifyReport& report) {
  JUnitSuite checks;
  checks.name = "clusterbench qualify " + report.spec.name;
  checks.properties = {{"results", report.results_path},
                       {"spec", report.spec.path.empty() ? report.spec.name : report.spec.path},
                       {"verdict", std::string(verdict_name(report.overall))}};
  for (const auto& warning : report.spec_warnings)
    checks.properties.push_back({"warning", warning});
  for (const auto& row : report.rows)
    checks.cases.push_back(row_case(row));
  if (report.fleet_verdict)
    checks.cases.push_back(fleet_case(report));

  JUnitSuite culprits;
  culprits.name = "clusterbench qualify culprits";
  const auto& named = report.culprits.culprits;
  for (std::size_t i = 0; i < named.size() && i < kMaxExportedSuspects; ++i)
    culprits.cases.push_back(culprit_case(named[i]));
  if (named.size() > kMaxExportedSuspects) {
    JUnitCase more;
    more.classname = "qualify.culprits";
    more.name = "more parts named";
    more.result = JUnitResult::failure;
    more.type = "culprit";
    more.message = std::to_string(named.size() - kMaxExportedSuspects) +
                   " more parts named; `clusterbench qualify --json` lists every one";
    culprits.cases.push_back(more);
  }
  return {checks, culprits};
}

std::string qualify_junit_xml(const QualifyReport& report) {
  return junit_xml("clusterbench qualify", qualify_junit_suites(report),
                   "qualify " + report.results_path + " --spec " + report.spec.name + ": " +
                       std::string(verdict_name(report.overall)));
}

} // namespace cb
