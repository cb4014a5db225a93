#pragma once
// `qualify --junit`: a qualification as JUnit XML. One testsuite of the spec's checks (a testcase
// per judged row: failed below the spec, skipped when inconclusive) and the fleet's verdict, and
// one of the culprits: a failed testcase per part the fleet rules name (kMaxExportedSuspects of
// them, then one saying how many more).
#include <string>

#include "exporters/junit_xml.hpp"
#include "qualify/qualify.hpp"

namespace cb {

std::vector<JUnitSuite> qualify_junit_suites(const QualifyReport& report);
std::string qualify_junit_xml(const QualifyReport& report);

} // namespace cb
