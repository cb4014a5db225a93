#include "qualify/spec.hpp"
#include "results/json_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <unordered_set>

#include "core/error.hpp"
#include "qualify/spec_metrics.hpp"
#include "results/metric_table.hpp"

namespace cb {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& problem) {
  throw InputError(where + ": " + problem);
}

std::string string_field(const json& j, const char* key, const std::string& where, bool required) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required)
      bad(where, std::string("missing field '") + key + "'");
    return "";
  }
  if (!it->is_string())
    bad(where, std::string("field '") + key + "' must be a string");
  return it->get<std::string>();
}

double number_field(const json& j, const char* key, const std::string& where, double fallback,
                    bool required) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required)
      bad(where, std::string("missing field '") + key + "'");
    return fallback;
  }
  if (!it->is_number())
    bad(where, std::string("field '") + key + "' must be a number");
  return it->get<double>();
}

// A constraint is a scalar, an array of scalars, or {"min": a, "max": b} with numbers.
void validate_constraint(const json& value, const std::string& where) {
  if (value.is_object()) {
    if (value.empty())
      bad(where, "a range needs 'min' and/or 'max'");
    for (const auto& [key, bound] : value.items()) {
      if (key != "min" && key != "max") {
        bad(where, "a range allows only 'min' and 'max', not '" + shown(key) + "'");
      }
      if (!bound.is_number())
        bad(where, "range bound '" + shown(key) + "' must be a number");
    }
    return;
  }
  if (value.is_array()) {
    if (value.empty())
      bad(where, "an empty list matches nothing");
    for (const auto& item : value) {
      if (item.is_object() || item.is_array())
        bad(where, "list items must be plain values");
    }
    return;
  }
  if (value.is_null())
    bad(where, "null is not a constraint (leave the field out)");
}

Measure measure_from_name(const std::string& name, const std::string& where) {
  if (name == "value")
    return Measure::value;
  if (name == "per_gpu")
    return Measure::per_gpu;
  if (name == "matrix_min")
    return Measure::matrix_min;
  bad(where, "field 'measure' is '" + shown(name) + "', allowed value|per_gpu|matrix_min");
}

Selection selection_from_name(const std::string& name, const std::string& where) {
  if (name == "best")
    return Selection::best;
  if (name == "each")
    return Selection::each;
  bad(where, "field 'select' is '" + shown(name) + "', allowed best|each");
}

// A suite outside the known families, or a metric its records never carry, could match nothing.
void validate_suite(const std::string& suite, const std::string& where) {
  const auto& suites = spec_suites();
  if (std::find(suites.begin(), suites.end(), suite) == suites.end()) {
    bad(where, "field 'suite' is '" + shown(suite) + "', allowed " + join_allowed(suites));
  }
}

void validate_metric(const std::string& suite, const std::string& metric,
                     const std::string& where) {
  const auto& metrics = spec_suite_metrics(suite);
  if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) {
    bad(where, "field 'metric' is '" + shown(metric) + "', which " + suite +
                   " records do not carry; allowed " + join_allowed(metrics));
  }
}

Expectation expectation_from_json(const json& j, const std::string& where) {
  if (!j.is_object())
    bad(where, "must be an object");
  static const std::vector<std::string> known = {
      "id",    "what",   "kind",    "suite",  "case",     "params",   "gpus",
      "nodes", "metric", "measure", "select", "expected", "fraction", "source"};
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      bad(where, "unknown field '" + shown(key) + "'");
    }
  }
  Expectation e;
  e.id = string_field(j, "id", where, true);
  const std::string at = where + " (" + shown(e.id, 40) + ")";
  e.what = string_field(j, "what", at, false);
  const std::string kind = j.contains("kind") ? string_field(j, "kind", at, true) : "threshold";
  if (kind == "threshold") {
    e.kind = CheckKind::threshold;
  } else if (kind == "data") {
    e.kind = CheckKind::data;
  } else {
    bad(at, "field 'kind' is '" + shown(kind) + "', allowed threshold|data");
  }
  const bool threshold = e.kind == CheckKind::threshold;
  e.suite = string_field(j, "suite", at, threshold);
  if (!e.suite.empty())
    validate_suite(e.suite, at);
  e.case_name = string_field(j, "case", at, threshold);
  if (j.contains("params")) {
    if (!j["params"].is_object())
      bad(at, "field 'params' must be an object");
    e.params = j["params"];
    for (const auto& [key, value] : e.params.items())
      validate_constraint(value, at + ": params." + shown(key));
  }
  for (const char* key : {"gpus", "nodes"}) {
    if (!j.contains(key))
      continue;
    validate_constraint(j[key], at + ": " + key);
    (std::string(key) == "gpus" ? e.gpus : e.nodes) = j[key];
  }
  e.source = string_field(j, "source", at, threshold);
  if (!threshold)
    return e;
  e.metric = string_field(j, "metric", at, true);
  validate_metric(e.suite, e.metric, at);
  if (j.contains("measure"))
    e.measure = measure_from_name(string_field(j, "measure", at, true), at);
  if (j.contains("select"))
    e.select = selection_from_name(string_field(j, "select", at, true), at);
  e.expected = number_field(j, "expected", at, 0, true);
  // No figure a spec states (GB/s, TFLOP/s, us) reaches 1e12 of its unit.
  if (!(e.expected > 0 && e.expected <= 1e12))
    bad(at, "field 'expected' must be in (0, 1e12]");
  e.fraction = number_field(j, "fraction", at, 1.0, false);
  if (!(e.fraction > 0 && e.fraction <= 1.0))
    bad(at, "field 'fraction' must be in (0, 1]");
  return e;
}

FleetRules fleet_from_json(const json& j, const std::string& where) {
  if (!j.is_object())
    bad(where, "must be an object");
  FleetRules rules;
  for (const auto& [key, value] : j.items()) {
    if (key != "robust_z" && key != "fraction_of_median" && key != "min_deviation" &&
        key != "min_peers" && key != "required" && key != "why") {
      bad(where, "unknown field '" + shown(key) + "'");
    }
  }
  rules.robust_z = number_field(j, "robust_z", where, rules.robust_z, false);
  if (!(rules.robust_z < 0))
    bad(where, "field 'robust_z' must be negative (a low z is an outlier)");
  rules.fraction_of_median =
      number_field(j, "fraction_of_median", where, rules.fraction_of_median, false);
  if (!(rules.fraction_of_median > 0 && rules.fraction_of_median < 1)) {
    bad(where, "field 'fraction_of_median' must be in (0, 1)");
  }
  rules.min_deviation = number_field(j, "min_deviation", where, rules.min_deviation, false);
  if (!(rules.min_deviation >= 0 && rules.min_deviation < 1)) {
    bad(where, "field 'min_deviation' must be in [0, 1)");
  }
  if (j.contains("min_peers")) {
    const json& peers = j["min_peers"];
    if (!peers.is_number_integer() || peers < 3 || peers > 1'000'000) {
      bad(where, "field 'min_peers' must be an integer in 3..1000000");
    }
    rules.min_peers = j["min_peers"].get<int>();
  }
  if (j.contains("required")) {
    if (!j["required"].is_boolean())
      bad(where, "field 'required' must be true or false");
    rules.required = j["required"].get<bool>();
  }
  return rules;
}

json constraint_or_null(const json& value) {
  return value.is_null() ? json() : value;
}

} // namespace

Spec spec_from_json(const json& j, const std::string& source) {
  if (!j.is_object())
    bad(source, "not a clusterbench spec (top level is not an object)");
  const std::string schema = string_field(j, "schema", source, true);
  if (schema != kSpecSchemaName) {
    bad(source, "field 'schema' is '" + shown(schema) + "', expected '" + kSpecSchemaName + "'");
  }
  // Compared as the number it is (get<int>() would wrap 4294967297 to 1).
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer() ||
      j["schema_version"] != kSpecSchemaVersion) {
    bad(source, "field 'schema_version' must be " + std::to_string(kSpecSchemaVersion));
  }
  Spec spec;
  spec.path = source;
  spec.name = string_field(j, "name", source, true);
  spec.title = string_field(j, "title", source, false);
  spec.backend = string_field(j, "backend", source, false);
  if (!spec.backend.empty() && spec.backend != "cuda" && spec.backend != "host")
    bad(source, "field 'backend' is '" + shown(spec.backend) + "', allowed cuda|host");
  if (const auto devices = j.find("devices"); devices != j.end()) {
    if (!devices->is_array() || devices->empty() || devices->size() > kMaxSpecDevices)
      bad(source, "field 'devices' must be an array of 1 to " + std::to_string(kMaxSpecDevices) +
                      " device names");
    for (const json& d : *devices) {
      if (!d.is_string() || d.get_ref<const std::string&>().empty() ||
          d.get_ref<const std::string&>().size() > kMaxDeviceNameBytes)
        bad(source, "field 'devices' must hold names of 1 to " +
                        std::to_string(kMaxDeviceNameBytes) + " bytes");
      spec.devices.push_back(d.get<std::string>());
    }
  }
  if (j.contains("fleet"))
    spec.fleet = fleet_from_json(j["fleet"], source + ": fleet");
  if (!j.contains("checks") || !j["checks"].is_array()) {
    bad(source, "field 'checks' must be an array");
  }
  const auto& checks = j["checks"];
  // A spec that checks nothing qualifies nothing: a verdict from it would say nothing was
  // judged, in the words of a spec that was.
  if (checks.empty())
    bad(source, "field 'checks' is empty; a spec needs one check at least");
  // A set, not a scan of the checks so far: a spec of a million checks loads in linear time.
  std::unordered_set<std::string> ids;
  spec.checks.reserve(checks.size());
  for (std::size_t i = 0; i < checks.size(); ++i) {
    Expectation e =
        expectation_from_json(checks[i], source + ": checks[" + std::to_string(i) + "]");
    if (!ids.insert(e.id).second)
      bad(source, "checks[" + std::to_string(i) + "]: duplicate id '" + shown(e.id) + "'");
    spec.checks.push_back(std::move(e));
  }
  return spec;
}

Spec load_spec_file(const std::string& path) {
  const json j = read_json_file(path);
  return reading_json(path, [&] { return spec_from_json(j, path); });
}

json spec_to_json(const Spec& spec) {
  json checks = json::array();
  for (const auto& e : spec.checks) {
    json c = {{"id", e.id}, {"kind", e.kind == CheckKind::data ? "data" : "threshold"}};
    if (!e.what.empty())
      c["what"] = e.what;
    if (!e.suite.empty())
      c["suite"] = e.suite;
    if (!e.case_name.empty())
      c["case"] = e.case_name;
    if (!e.params.empty())
      c["params"] = e.params;
    if (!e.gpus.is_null())
      c["gpus"] = constraint_or_null(e.gpus);
    if (!e.nodes.is_null())
      c["nodes"] = constraint_or_null(e.nodes);
    if (e.kind == CheckKind::threshold) {
      c["metric"] = e.metric;
      c["measure"] = measure_name(e.measure);
      c["select"] = selection_name(e.select);
      c["expected"] = e.expected;
      c["fraction"] = e.fraction;
    }
    c["source"] = e.source;
    checks.push_back(std::move(c));
  }
  json out = {{"schema", kSpecSchemaName},
              {"schema_version", kSpecSchemaVersion},
              {"name", spec.name},
              {"title", spec.title},
              {"fleet",
               {{"robust_z", spec.fleet.robust_z},
                {"fraction_of_median", spec.fleet.fraction_of_median},
                {"min_deviation", spec.fleet.min_deviation},
                {"min_peers", spec.fleet.min_peers},
                {"required", spec.fleet.required}}},
              {"checks", std::move(checks)}};
  if (!spec.backend.empty())
    out["backend"] = spec.backend;
  if (!spec.devices.empty())
    out["devices"] = spec.devices;
  return out;
}

bool lower_is_better(std::string_view metric) {
  return metric_lower_is_better(metric);
}

std::string metric_unit(std::string_view metric) {
  const MetricUnitSuffix* unit = unit_suffix_of(metric);
  return unit ? unit->unit : "";
}

std::string_view measure_name(Measure m) {
  switch (m) {
  case Measure::value:
    return "value";
  case Measure::per_gpu:
    return "per_gpu";
  case Measure::matrix_min:
    return "matrix_min";
  }
  return "value";
}

std::string_view selection_name(Selection s) {
  return s == Selection::best ? "best" : "each";
}

} // namespace cb
