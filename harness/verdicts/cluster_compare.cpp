#include "verdicts/cluster_compare.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <system_error>
#include <thread>
#include <vector>

#include "analysis/curves.hpp"
#include "analysis/efficiency.hpp"
#include "analysis/scaling_fits.hpp"
#include "core/stats.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::string kAbsent = "-";

std::string text_of(const json& value) {
  if (value.is_null())
    return kAbsent;
  if (value.is_string())
    return value.get<std::string>().empty() ? kAbsent : value.get<std::string>();
  return value.dump();
}

const json& hosts_of(const ResultsFile& f) {
  static const json none = json::array();
  auto it = f.run.find("hosts");
  return it != f.run.end() && it->is_array() ? *it : none;
}

// "8 x NVIDIA H100 80GB HBM3", models in order of first appearance.
std::string gpu_models(const ResultsFile& f) {
  std::vector<std::pair<std::string, int>> models;
  for (const auto& host : hosts_of(f)) {
    if (!host.is_object() || !host.contains("devices") || !host["devices"].is_array())
      continue;
    for (const auto& device : host["devices"]) {
      const std::string name = device.is_object() ? text_of(device.value("name", json())) : kAbsent;
      auto it = std::find_if(models.begin(), models.end(),
                             [&](const auto& m) { return m.first == name; });
      if (it == models.end()) {
        models.emplace_back(name, 1);
      } else {
        ++it->second;
      }
    }
  }
  std::string text;
  for (const auto& [name, count] : models) {
    text += (text.empty() ? "" : ", ") + std::to_string(count) + " x " + name;
  }
  return text.empty() ? kAbsent : text;
}

std::string device_count(const ResultsFile& f) {
  std::size_t devices = 0;
  for (const auto& host : hosts_of(f)) {
    if (host.is_object() && host.contains("devices") && host["devices"].is_array()) {
      devices += host["devices"].size();
    }
  }
  return hosts_of(f).empty() ? kAbsent : std::to_string(devices);
}

std::string run_field(const ResultsFile& f, const std::string& name) {
  auto it = f.run.find(name);
  return it == f.run.end() ? kAbsent : text_of(*it);
}

std::string version_field(const ResultsFile& f, const std::string& name) {
  auto versions = f.run.find("versions");
  if (versions == f.run.end() || !versions->is_object())
    return kAbsent;
  auto it = versions->find(name);
  return it == versions->end() ? kAbsent : text_of(*it);
}

// "1, 2, 4, 8" of a record field over the usable records.
std::string counts_measured(const ResultsFile& f, int Record::*field) {
  std::set<int> counts;
  for (const auto& r : f.records) {
    if (r.status != RecordStatus::skipped && r.status != RecordStatus::failed)
      counts.insert(r.*field);
  }
  std::string text;
  for (int n : counts)
    text += (text.empty() ? "" : ", ") + std::to_string(n);
  return text.empty() ? kAbsent : text;
}

std::vector<std::string> version_names(const ResultsFile& a, const ResultsFile& b) {
  std::vector<std::string> names = {"driver", "cuda", "nccl", "mpi", "compiler"};
  for (const ResultsFile* f : {&a, &b}) {
    auto versions = f->run.find("versions");
    if (versions == f->run.end() || !versions->is_object())
      continue;
    for (const auto& [name, value] : versions->items()) {
      if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
    }
  }
  return names;
}

std::string curve_id(const CurveKey& key) {
  return key.suite + '\x1f' + key.case_name + '\x1f' + key.metric + '\x1f' + key.params.dump();
}

std::map<int, std::optional<double>> efficiency_by_gpus(const Curve& curve, const Efficiency& e) {
  std::map<int, std::optional<double>> by_gpus;
  for (std::size_t i = 0; i < curve.gpus.size(); ++i)
    by_gpus[curve.gpus[i]] = e.value[i];
  return by_gpus;
}

ScalingModels models_of(const Curve& curve) {
  CurveFits fits = fit_curve(curve);
  return {std::move(fits.usl), std::move(fits.amdahl)};
}

// Efficiency and fitted models of every curve both files have, matched by suite, case, params and
// metric. A curve of one GPU count, or of latency, says nothing about scaling and is left out.
void contrast_scaling(const ResultsFile& a, const ResultsFile& b, ClusterComparison& comparison) {
  const std::vector<Curve> curves_a = extract_curves(a);
  const std::vector<Curve> curves_b = extract_curves(b);
  std::map<std::string, const Curve*> b_by_id;
  for (const auto& c : curves_b)
    b_by_id.emplace(curve_id(c.key), &c);

  for (const auto& curve_a : curves_a) {
    auto match = b_by_id.find(curve_id(curve_a.key));
    if (match == b_by_id.end())
      continue;
    const Curve& curve_b = *match->second;
    const Efficiency efficiency_a = efficiency(curve_a);
    const Efficiency efficiency_b = efficiency(curve_b);
    const auto eff_a = efficiency_by_gpus(curve_a, efficiency_a);
    const auto eff_b = efficiency_by_gpus(curve_b, efficiency_b);
    EfficiencyContrast contrast{
        curve_a.key.suite, curve_a.key.case_name, curve_a.key.metric, curve_a.key.params, 0, {}};
    contrast.base_gpus = std::max(efficiency_a.base_gpus, efficiency_b.base_gpus);
    std::set<int> gpus;
    for (const auto& [n, e] : eff_a)
      gpus.insert(n);
    for (const auto& [n, e] : eff_b)
      gpus.insert(n);
    bool any = false;
    for (int n : gpus) {
      EfficiencyRow row{n, std::nullopt, std::nullopt};
      if (auto it = eff_a.find(n); it != eff_a.end())
        row.a = it->second;
      if (auto it = eff_b.find(n); it != eff_b.end())
        row.b = it->second;
      any = any || row.a || row.b;
      contrast.rows.push_back(row);
    }
    if (!any || gpus.size() < 2)
      continue;
    comparison.efficiency.push_back(std::move(contrast));
    comparison.models.push_back({curve_a.key.suite, curve_a.key.case_name, curve_a.key.metric,
                                 curve_a.key.params, models_of(curve_a), models_of(curve_b)});
  }
}

} // namespace

std::vector<EnvironmentRow> environment_difference(const ResultsFile& a, const ResultsFile& b) {
  std::vector<EnvironmentRow> rows;
  auto add = [&](const std::string& field, std::string va, std::string vb) {
    const bool differs = va != vb;
    rows.push_back({field, std::move(va), std::move(vb), differs});
  };
  add("GPU model", gpu_models(a), gpu_models(b));
  add("nodes", hosts_of(a).empty() ? kAbsent : std::to_string(hosts_of(a).size()),
      hosts_of(b).empty() ? kAbsent : std::to_string(hosts_of(b).size()));
  add("GPUs", device_count(a), device_count(b));
  add("backend", run_field(a, "backend"), run_field(b, "backend"));
  add("launcher", run_field(a, "launcher"), run_field(b, "launcher"));
  for (const auto& name : version_names(a, b))
    add(name, version_field(a, name), version_field(b, name));
  add("tool version", run_field(a, "tool_version"), run_field(b, "tool_version"));
  add("GPU counts measured", counts_measured(a, &Record::gpus), counts_measured(b, &Record::gpus));
  add("node counts measured", counts_measured(a, &Record::nodes),
      counts_measured(b, &Record::nodes));
  return rows;
}

CaseContrast contrast_case(const MeasuredCase& a, const MeasuredCase& b,
                           const CompareOptions& options) {
  CaseContrast c;
  c.key = a.key;
  const auto headline_a = headline_metric_of(a);
  const auto headline_b = headline_metric_of(b);
  c.metric = headline_a && headline_b && headline_a->name == headline_b->name ? headline_a->name
                                                                              : std::string();
  c.a_metric = c.metric.empty() ? kNaN : median_metric(a, c.metric);
  c.b_metric = c.metric.empty() ? kNaN : median_metric(b, c.metric);
  c.a_time_s = a.samples_s.empty() ? kNaN : median(a.samples_s);
  c.b_time_s = b.samples_s.empty() ? kNaN : median(b.samples_s);

  const auto measures = common_measure(a, b);
  if (!measures) {
    c.speed = {kNaN, kNaN, kNaN};
    c.p_value = kNaN;
    return c;
  }
  const ComparedMeasure& ma = measures->first;
  const ComparedMeasure& mb = measures->second;
  c.basis = ma.quantity;
  c.a_count = ma.values.size();
  c.b_count = mb.values.size();
  const bool positive = median(ma.values) > 0 && median(mb.values) > 0;
  if (positive) {
    // Speed of B over A: lower-is-better figures are inverted by swapping the sides.
    c.speed = ma.better == Better::higher
                  ? bootstrap_median_ratio(ma.values, mb.values, options.bootstrap)
                  : bootstrap_median_ratio(mb.values, ma.values, options.bootstrap);
  } else {
    c.speed = {kNaN, kNaN, kNaN};
  }
  const MannWhitneyResult test = mann_whitney_u(ma.values, mb.values);
  c.p_value = test.p_value;
  c.method = test.method;
  c.too_few = c.a_count < options.min_samples || c.b_count < options.min_samples;
  c.significant = !c.too_few && test.p_value < options.significance;
  return c;
}

ClusterComparison compare_clusters(const ResultsFile& a, const ResultsFile& b,
                                   const CompareOptions& options) {
  ClusterComparison comparison;
  comparison.environment = environment_difference(a, b);
  const CaseIndex index_a = index_cases(a);
  const CaseIndex index_b = index_cases(b);
  const CaseMatch match = match_cases(index_a, index_b);
  // Each case's bootstrap and test depend on its two sides alone (the same seed for every case),
  // so the cases are contrasted on every core, each into its own slot: the same comparison,
  // in the same order, as one thread makes (2,000 resamples a case, thousands of cases in the
  // files of a whole cluster).
  comparison.cases.resize(match.both.size());
  std::atomic<std::size_t> next{0};
  // A case that throws: the first of them in the cases' order is the one said, as one thread
  // would say it, whichever thread met it first.
  std::vector<std::exception_ptr> failed(match.both.size());
  auto work = [&] {
    for (std::size_t i = next++; i < match.both.size(); i = next++) {
      try {
        comparison.cases[i] = contrast_case(*match.both[i].first, *match.both[i].second, options);
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  };
  {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t helpers = std::min<std::size_t>(cores, match.both.size() / 64 + 1) - 1;
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < helpers; ++t) {
      try {
        threads.emplace_back(work);
      } catch (const std::system_error&) {
        break; // no more threads to be had: those started and this one do the rest
      }
    }
    work();
  }
  for (const auto& e : failed) {
    if (e)
      std::rethrow_exception(e);
  }
  comparison.only_in_a = match.only_in_a;
  comparison.only_in_b = match.only_in_b;
  contrast_scaling(a, b, comparison);
  return comparison;
}

} // namespace cb
