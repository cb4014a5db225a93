#include "exporters/qualify_junit.hpp"

#include <cstdio>

#include "exporters/exported_parts.hpp"
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
  const std::string line = std::string(verdict_name(*report.fleet_verdict)) + ": " +
                           std::to_string(f.fleets_examined) + " fleets examined, " +
                           std::to_string(f.failing()) + " outliers, " +
                           std::to_string(f.suspects.size()) + " parts named, " +
                           std::to_string(f.warnings() + f.note_warnings()) + " warnings";
  t.message = t.result == JUnitResult::passed ? "" : line;
  t.type = "outlier";
  t.details = line;
  return t;
}

std::string ratio_text(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", ratio);
  return text;
}

JUnitCase suspect_case(const Suspect& s) {
  JUnitCase t;
  t.classname = "qualify.culprits." + std::string(fleet_kind_name(s.kind));
  t.name = s.label.empty() ? member_label(s.kind, s.who, s.to) : s.label;
  t.result = JUnitResult::failure;
  t.type = "outlier";
  t.message = t.name + ": named by " + std::to_string(s.outliers) + " outlier finding" +
              (s.outliers == 1 ? "" : "s") + ", worst " + ratio_text(s.worst_ratio) +
              "x of its fleet median" + (s.via_links ? " (through its links)" : "");
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
  const auto& suspects = report.fleet.suspects;
  for (std::size_t i = 0; i < suspects.size() && i < kMaxExportedSuspects; ++i)
    culprits.cases.push_back(suspect_case(suspects[i]));
  if (suspects.size() > kMaxExportedSuspects) {
    JUnitCase more;
    more.classname = "qualify.culprits";
    more.name = "more parts named";
    more.result = JUnitResult::failure;
    more.type = "outlier";
    more.message = std::to_string(suspects.size() - kMaxExportedSuspects) +
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
