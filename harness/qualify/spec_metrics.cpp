#include "qualify/spec_metrics.hpp"

#include <algorithm>
#include <set>

#include "results/metric_table.hpp"

namespace cb {
namespace {

struct SuiteMetrics {
  std::string suite;
  std::vector<std::string> metrics; // in the table's order
};

// From the suites each metric of results/metrics.json names: when a case or an importer gains a
// metric a spec may check, its entry there names the suite (the bundled specs are tested to load).
std::vector<SuiteMetrics> suites_of_table() {
  std::set<std::string> names; // sorted: moving an entry in the file reorders no message
  for (const auto& m : metric_table())
    names.insert(m.suites.begin(), m.suites.end());
  std::vector<SuiteMetrics> suites;
  for (const auto& name : names) {
    SuiteMetrics s{name, {}};
    for (const auto& m : metric_table()) {
      if (std::find(m.suites.begin(), m.suites.end(), name) != m.suites.end())
        s.metrics.push_back(m.name);
    }
    suites.push_back(std::move(s));
  }
  return suites;
}

const std::vector<SuiteMetrics>& table() {
  static const std::vector<SuiteMetrics> suites = suites_of_table();
  return suites;
}

} // namespace

const std::vector<std::string>& spec_suites() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& s : table())
      out.push_back(s.suite);
    return out;
  }();
  return names;
}

const std::vector<std::string>& spec_suite_metrics(std::string_view suite) {
  static const std::vector<std::string> none;
  const auto& suites = table();
  auto it = std::find_if(suites.begin(), suites.end(),
                         [&](const SuiteMetrics& s) { return s.suite == suite; });
  return it == suites.end() ? none : it->metrics;
}

std::string join_allowed(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names)
    text += (text.empty() ? "" : "|") + name;
  return text;
}

} // namespace cb
