#include "qualify/reference_spec.hpp"
#include "results/json_file.hpp"

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "qualify/record_match.hpp"
#include "qualify/spec_fit.hpp"
#include "results/results_io.hpp"

namespace cb {

bool is_results_document(const nlohmann::json& j) {
  // A "schema" that is not a string is not a results file's (value() would throw on it).
  if (!j.is_object())
    return false;
  const auto it = j.find("schema");
  return it != j.end() && it->is_string() && it->get<std::string>() == kResultsSchemaName;
}

Spec spec_from_reference(const ResultsFile& reference, const std::string& path, double fraction) {
  if (!(fraction > 0 && fraction <= 1.0)) {
    throw InputError("--fraction: must be in (0, 1], got " + std::to_string(fraction));
  }
  Spec spec;
  spec.name = "reference";
  spec.path = path;
  spec.from_reference = true;
  const std::string run_id = reference.run.value("id", std::string());
  spec.title = "as good as " + path + (run_id.empty() ? "" : " (run " + run_id + ")");
  // Of the reference's backend and parts: a run of another kind is not judged against it blind.
  if (const std::string backend = reference.run.value("backend", std::string());
      backend == "cuda" || backend == "host")
    spec.backend = backend;
  for (const std::string& name : device_names(reference.run)) {
    if (spec.devices.size() < kMaxSpecDevices && !name.empty() &&
        name.size() <= kMaxDeviceNameBytes)
      spec.devices.push_back(name);
  }
  for (std::size_t i = 0; i < reference.records.size(); ++i) {
    const Record& r = reference.records[i];
    if (r.status != RecordStatus::ok)
      continue;
    const std::string metric = primary_metric(r.metrics);
    if (metric.empty())
      continue;
    const double value = r.metrics[metric].get<double>();
    if (!(value > 0))
      continue;
    Expectation e;
    // Named by the reference record it came from; the report's RECORD column says what it is.
    e.id = "ref[" + std::to_string(i) + "]";
    e.what = metric + " of " + describe_record(r);
    e.kind = CheckKind::threshold;
    e.suite = r.suite;
    e.case_name = r.case_name;
    // Every param must match exactly. An object-valued param is wrapped in a one-item list so it
    // is compared by equality rather than read as a {"min","max"} range.
    for (const auto& [key, value] : r.params.items()) {
      e.params[key] = value.is_object() ? nlohmann::json::array({value}) : value;
    }
    e.gpus = r.gpus;
    e.nodes = r.nodes;
    e.metric = metric;
    e.measure = Measure::value;
    e.select = Selection::best;
    e.expected = value;
    e.fraction = fraction;
    e.source = path + ": records[" + std::to_string(i) + "]";
    spec.checks.push_back(std::move(e));
  }
  if (spec.checks.empty()) {
    throw InputError(path + ": no record usable as a reference (every record is skipped, failed, "
                            "noisy or has no figure)");
  }
  return spec;
}

Spec load_spec_or_reference(const std::string& path, std::optional<double> fraction) {
  // Read once, streaming: a reference run of a whole cluster never becomes a tree beside its
  // records.
  ResultsDocument document(path);
  const nlohmann::json& j = document.top();
  if (is_results_document(j)) {
    const ResultsFile reference = document.results();
    return reading_json(path, [&] {
      return spec_from_reference(reference, path, fraction.value_or(kDefaultReferenceFraction));
    });
  }
  Spec spec = reading_json(path, [&] { return spec_from_json(j, path); });
  if (fraction) {
    if (!(*fraction > 0 && *fraction <= 1.0)) {
      throw InputError("--fraction: must be in (0, 1], got " + std::to_string(*fraction));
    }
    for (auto& check : spec.checks)
      check.fraction = *fraction;
  }
  return spec;
}

} // namespace cb
