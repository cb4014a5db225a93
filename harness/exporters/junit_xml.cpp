#include "exporters/junit_xml.hpp"

#include <unordered_map>

#include "exporters/text_cleaning.hpp"

namespace cb {
namespace {

// A comment may not hold "--" (nor end with "-"): the heading is ours, but it names input files.
std::string comment_text(std::string_view text) {
  std::string out = xml_escape(text, false);
  for (std::size_t at = out.find("--"); at != std::string::npos; at = out.find("--", at))
    out.replace(at, 2, "- ");
  if (!out.empty() && out.back() == '-')
    out += ' ';
  return out;
}

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + xml_escape(value, true) + "\"";
}

void append_case(std::string& out, const JUnitCase& c) {
  out += "    <testcase" + attribute("name", c.name) + attribute("classname", c.classname);
  if (c.result == JUnitResult::passed && c.details.empty()) {
    out += "/>\n";
    return;
  }
  out += ">\n";
  if (c.result == JUnitResult::failure) {
    out += "      <failure" + attribute("message", c.message) +
           attribute("type", c.type.empty() ? "failure" : c.type) + ">" +
           xml_escape(c.details, false) + "</failure>\n";
  } else if (c.result == JUnitResult::skipped) {
    out += "      <skipped" + attribute("message", c.message) + "/>\n";
  }
  if (c.result != JUnitResult::failure && !c.details.empty())
    out += "      <system-out>" + xml_escape(c.details, false) + "</system-out>\n";
  out += "    </testcase>\n";
}

std::string counts(std::size_t tests, std::size_t failures, std::size_t skipped) {
  return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
         "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\"";
}

} // namespace

std::size_t JUnitSuite::count(JUnitResult result) const {
  std::size_t n = 0;
  for (const auto& c : cases)
    n += c.result == result;
  return n;
}

std::string xml_escape(std::string_view text, bool attribute) {
  const std::string clean = replace_unsafe_text(text, "\t\n\r");
  std::string out;
  out.reserve(clean.size());
  for (std::size_t i = 0; i < clean.size(); ++i) {
    const char c = clean[i];
    // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
    if (c == '\xEF' && i + 2 < clean.size() && clean[i + 1] == '\xBF' &&
        (clean[i + 2] == '\xBE' || clean[i + 2] == '\xBF')) {
      out += "\xEF\xBF\xBD";
      i += 2;
      continue;
    }
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += attribute ? "&quot;" : "\"";
      break;
    case '\t':
      out += attribute ? "&#9;" : "\t";
      break;
    case '\n':
      out += attribute ? "&#10;" : "\n";
      break;
    case '\r':
      out += "&#13;"; // a raw CR is read back as a newline even in text
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string junit_xml(std::string_view name, const std::vector<JUnitSuite>& suites,
                      std::string_view heading) {
  std::size_t tests = 0, failures = 0, skipped = 0;
  for (const auto& suite : suites) {
    tests += suite.cases.size();
    failures += suite.count(JUnitResult::failure);
    skipped += suite.count(JUnitResult::skipped);
  }
  std::string out(kJUnitFileStart);
  out += comment_text(heading) + " -->\n";
  std::unordered_map<std::string, std::size_t> times_seen;
  out += "<testsuites" + attribute("name", name) + counts(tests, failures, skipped) + ">\n";
  for (const auto& suite : suites) {
    out += "  <testsuite" + attribute("name", suite.name) +
           counts(suite.cases.size(), suite.count(JUnitResult::failure),
                  suite.count(JUnitResult::skipped)) +
           ">\n";
    if (!suite.properties.empty()) {
      out += "    <properties>\n";
      for (const auto& p : suite.properties)
        out += "      <property" + attribute("name", p.name) + attribute("value", p.value) + "/>\n";
      out += "    </properties>\n";
    }
    for (const auto& c : suite.cases) {
      // GitLab keys a testcase by classname and name and drops the later ones of a key; two
      // records that read alike must both be shown.
      const std::string key = c.classname + '\n' + c.name;
      const std::size_t seen = ++times_seen[key];
      if (seen == 1) {
        append_case(out, c);
        continue;
      }
      JUnitCase renamed = c;
      renamed.name += " (" + std::to_string(seen) + ")";
      append_case(out, renamed);
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

} // namespace cb
