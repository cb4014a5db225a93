#pragma once
// `check --junit`: the regression gate's verdict as JUnit XML, one testcase per case judged
// (failed on a regression, with its figures; skipped when inconclusive; passed when unchanged or
// improved) and one skipped testcase per case measured on one side only.
#include <string>

#include "exporters/junit_xml.hpp"
#include "verdicts/check_report.hpp"

namespace cb {

JUnitSuite check_junit_suite(const CheckReport& report, const CheckContext& context);
std::string check_junit_xml(const CheckReport& report, const CheckContext& context);

} // namespace cb
