#include "qualify/record_match.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "results/metric_table.hpp"
#include "results/params_text.hpp"

namespace cb {
namespace {

using nlohmann::json;

bool scalar_equal(const json& a, const json& b) {
  if (a.is_number_integer() && b.is_number_integer()) {
    // Byte counts are exact: 4 GiB and one byte less are different cases.
    if (a.is_number_unsigned() || b.is_number_unsigned()) {
      return a.get<long double>() == b.get<long double>();
    }
    return a.get<long long>() == b.get<long long>();
  }
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>();
    const double y = b.get<double>();
    return std::fabs(x - y) <= 1e-9 * std::max({1.0, std::fabs(x), std::fabs(y)});
  }
  return a == b;
}

} // namespace

bool constraint_matches(const json& constraint, const json* value) {
  if (value == nullptr || value->is_null())
    return false;
  if (constraint.is_object()) {
    if (!value->is_number())
      return false;
    const double v = value->get<double>();
    const double lo = constraint.value("min", -std::numeric_limits<double>::infinity());
    const double hi = constraint.value("max", std::numeric_limits<double>::infinity());
    return v >= lo && v <= hi;
  }
  if (constraint.is_array()) {
    return std::any_of(constraint.begin(), constraint.end(),
                       [&](const json& option) { return scalar_equal(option, *value); });
  }
  return scalar_equal(constraint, *value);
}

bool params_match(const json& wanted, const json& params) {
  for (const auto& [key, constraint] : wanted.items()) {
    auto it = params.find(key);
    if (!constraint_matches(constraint, it == params.end() ? nullptr : &*it))
      return false;
  }
  return true;
}

bool record_matches(const Expectation& e, const Record& r) {
  if (!e.suite.empty() && e.suite != r.suite)
    return false;
  if (!e.case_name.empty() && e.case_name != r.case_name)
    return false;
  if (!e.gpus.is_null()) {
    const json gpus = r.gpus;
    if (!constraint_matches(e.gpus, &gpus))
      return false;
  }
  if (!e.nodes.is_null()) {
    const json nodes = r.nodes;
    if (!constraint_matches(e.nodes, &nodes))
      return false;
  }
  return params_match(e.params, r.params);
}

std::optional<double> measure_record(const Expectation& e, const Record& r, std::string* why) {
  auto missing = [&](const std::string& text) -> std::optional<double> {
    if (why)
      *why = text;
    return std::nullopt;
  };
  if (e.measure == Measure::matrix_min) {
    auto it = r.extra.find("matrix");
    if (it == r.extra.end() || !it->is_array())
      return missing("no link matrix (extra.matrix)");
    std::optional<double> worst;
    const bool lower = lower_is_better(e.metric);
    for (std::size_t i = 0; i < it->size(); ++i) {
      const auto& row = (*it)[i];
      if (!row.is_array())
        continue;
      for (std::size_t j = 0; j < row.size(); ++j) {
        if (i == j || !row[j].is_number())
          continue;
        const double v = row[j].get<double>();
        if (!worst || (lower ? v > *worst : v < *worst))
          worst = v;
      }
    }
    if (!worst)
      return missing("link matrix has no off-diagonal figures");
    return worst;
  }
  auto it = r.metrics.find(e.metric);
  if (it == r.metrics.end() || !it->is_number())
    return missing("no metric '" + e.metric + "'");
  const double value = it->get<double>();
  if (e.measure == Measure::per_gpu)
    return value / std::max(1, r.gpus);
  return value;
}

std::string primary_metric(const json& candidates) {
  // The metric table's headline throughputs, a storage import's IOPS, the headline latency, then
  // the time every measured record carries.
  static const std::vector<std::string> preferred = [] {
    std::vector<std::string> names;
    for (const MetricDefinition* m : headline_metric_definitions()) {
      if (m->higher_is_better)
        names.push_back(m->name);
    }
    names.push_back("iops");
    for (const MetricDefinition* m : headline_metric_definitions()) {
      if (!m->higher_is_better)
        names.push_back(m->name);
    }
    names.push_back("time_us");
    return names;
  }();
  for (const std::string& name : preferred) {
    auto it = candidates.find(name);
    if (it != candidates.end() && it->is_number())
      return name;
  }
  return "";
}

std::string describe_record(const Record& r) {
  std::string text = r.suite + "/" + r.case_name;
  if (const std::string params = describe_params(r.params); !params.empty())
    text += " " + params;
  text += " gpus=" + std::to_string(r.gpus);
  if (r.nodes > 1)
    text += " nodes=" + std::to_string(r.nodes);
  return text;
}

} // namespace cb
