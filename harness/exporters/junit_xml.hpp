#pragma once
// JUnit XML as Jenkins' junit plugin and GitLab's artifacts:reports:junit read it: <testsuites>
// holding <testsuite>s of <testcase>s, each passed, failed (<failure message type>figures
// </failure>) or skipped (<skipped message/>). tests/fixtures/junit/junit.xsd is the schema the
// tests hold every file to.
#include <string>
#include <string_view>
#include <vector>

#include "results/output_target.hpp"

namespace cb {

// The first bytes of every JUnit file clusterbench writes: how output_target knows a file of ours.
inline constexpr std::string_view kJUnitFileStart = kJUnitXmlStart;

enum class JUnitResult { passed, failure, skipped };

struct JUnitCase {
  std::string classname; // CI systems group by it: "collectives.all_reduce", "qualify.checks"
  std::string name;
  JUnitResult result = JUnitResult::passed;
  std::string message; // one line: why it failed or was skipped
  std::string type;    // of a failure: "regression", "below spec", "outlier"
  std::string details; // the figures, as the failure's text or the case's system-out
};

struct JUnitProperty {
  std::string name, value;
};

struct JUnitSuite {
  std::string name;
  std::vector<JUnitProperty> properties;
  std::vector<JUnitCase> cases;
  std::size_t count(JUnitResult result) const;
};

// The whole document: `heading` in the comment kJUnitFileStart opens, `name` on <testsuites>,
// the counts summed from the cases.
std::string junit_xml(std::string_view name, const std::vector<JUnitSuite>& suites,
                      std::string_view heading);

// Text escaped for XML 1.0 character data (&, <, >) or, with `attribute`, for a double-quoted
// attribute (also ", and tab, newline and carriage return as references, which an attribute would
// otherwise fold into spaces). Characters XML 1.0 cannot hold at all (other C0 controls, invalid
// UTF-8, U+FFFE and U+FFFF) become U+FFFD.
std::string xml_escape(std::string_view text, bool attribute);

} // namespace cb
