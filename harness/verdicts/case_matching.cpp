#include "verdicts/case_matching.hpp"

#include <cmath>
#include <limits>
#include <map>

#include "core/stats.hpp"
#include "results/metric_table.hpp"
#include "results/suite_names.hpp"
#include "verdicts/google_benchmark_json.hpp"

namespace cb {
namespace {

std::string note_for(const UnmeasuredCase& u) {
  return to_string(u.status) + (u.reason.empty() ? "" : ": " + u.reason);
}

// Cases measured in `from` and absent from `other`, with the reason `other` gives if it has one.
std::vector<MissingCase> missing_from(const CaseIndex& from, const CaseIndex& other) {
  std::map<std::string, const UnmeasuredCase*> why;
  for (const auto& u : other.unmeasured)
    why.emplace(u.key.id(), &u);
  std::vector<MissingCase> missing;
  for (const auto& c : from.measured) {
    const std::string id = c.key.id();
    if (other.find(id))
      continue;
    auto it = why.find(id);
    missing.push_back({c.key, it == why.end() ? "" : note_for(*it->second)});
  }
  return missing;
}

} // namespace

std::string CaseKey::id() const {
  return suite + '\x1f' + case_name + '\x1f' + params.dump() + '\x1f' + std::to_string(gpus);
}

nlohmann::json comparable_params(const std::string& suite, const nlohmann::json& params) {
  if (!params.is_object())
    return params;
  nlohmann::json out = params;
  // Element counts follow from bytes and dtype (and each tool counts them its own way).
  out.erase("count");
  // OSU's per-rank message size: "bytes" holds the same size the way nccl-tests counts it.
  out.erase("message_bytes");
  // fio's direct=1 and the storage suite's io=direct are one choice.
  if (out.contains("io"))
    out.erase("direct");
  // Root 0 is every source's default; our broadcast and reduce always use it and do not say so.
  if (auto it = out.find("root");
      it != out.end() && it->is_number_integer() && it->get<long long>() == 0) {
    out.erase(it);
  }
  // A storage read covers the file in whole blocks: its bytes follow from file_bytes and
  // block_bytes.
  if (suite == suite_names::kStorage && out.contains("file_bytes") && out.contains("block_bytes"))
    out.erase("bytes");
  return out;
}

CaseKey key_of(const Record& record) {
  return {record.suite, record.case_name, comparable_params(record.suite, record.params),
          record.gpus};
}

std::string describe_case(const CaseKey& key) {
  std::string text = key.suite + "/" + key.case_name;
  const std::string params = describe_params(key.params);
  if (!params.empty())
    text += " " + params;
  // Google Benchmark runs are single-process: a GPU count would only mislead.
  if (key.suite == kGoogleBenchmarkSuite)
    return text;
  return text + ", " + std::to_string(key.gpus) + (key.gpus == 1 ? " GPU" : " GPUs");
}

nlohmann::json key_to_json(const CaseKey& key) {
  return {
      {"suite", key.suite}, {"case", key.case_name}, {"params", key.params}, {"gpus", key.gpus}};
}

const MeasuredCase* CaseIndex::find(const std::string& id) const {
  auto it = position.find(id);
  return it == position.end() ? nullptr : &measured[it->second];
}

CaseIndex index_cases(const ResultsFile& results) {
  CaseIndex index;
  for (const Record& r : results.records) {
    CaseKey key = key_of(r);
    const std::string id = key.id();
    if (r.status == RecordStatus::skipped || r.status == RecordStatus::failed) {
      index.unmeasured.push_back({std::move(key), r.status, r.reason});
      continue;
    }
    auto [it, inserted] = index.position.emplace(id, index.measured.size());
    if (inserted)
      index.measured.push_back({std::move(key), {}, {}, 0, false});
    MeasuredCase& c = index.measured[it->second];
    c.samples_s.insert(c.samples_s.end(), r.samples_s.begin(), r.samples_s.end());
    if (r.samples_s.empty())
      ++c.records_without_samples;
    c.record_metrics.push_back(r.metrics);
    c.noisy = c.noisy || r.status == RecordStatus::noisy;
  }
  return index;
}

const char* to_string(Better better) {
  return better == Better::lower ? "lower" : "higher";
}

const std::vector<HeadlineMetric>& headline_metrics() {
  static const std::vector<HeadlineMetric> metrics = [] {
    std::vector<HeadlineMetric> list;
    auto add = [&](const MetricDefinition& m) {
      list.push_back({m.name, m.higher_is_better ? Better::higher : Better::lower});
    };
    for (const MetricDefinition* m : headline_metric_definitions())
      add(*m);
    // Every measured record carries time_us: the figure of last resort.
    add(*find_metric("time_us"));
    return list;
  }();
  return metrics;
}

std::optional<HeadlineMetric> headline_metric_of(const MeasuredCase& c) {
  if (c.record_metrics.empty())
    return std::nullopt;
  for (const auto& metric : headline_metrics()) {
    bool everywhere = true;
    for (const auto& m : c.record_metrics)
      everywhere = everywhere && m.contains(metric.name);
    if (everywhere)
      return metric;
  }
  return std::nullopt;
}

double median_metric(const MeasuredCase& c, const std::string& name) {
  std::vector<double> values;
  for (const auto& m : c.record_metrics) {
    if (auto it = m.find(name); it != m.end() && it->is_number())
      values.push_back(it->get<double>());
  }
  return values.empty() ? std::numeric_limits<double>::quiet_NaN() : median(values);
}

std::optional<std::pair<ComparedMeasure, ComparedMeasure>> common_measure(const MeasuredCase& a,
                                                                          const MeasuredCase& b) {
  const bool a_timed = !a.samples_s.empty() && a.records_without_samples == 0;
  const bool b_timed = !b.samples_s.empty() && b.records_without_samples == 0;
  if (a_timed && b_timed) {
    return std::pair{ComparedMeasure{kTimeQuantity, Better::lower, a.samples_s},
                     ComparedMeasure{kTimeQuantity, Better::lower, b.samples_s}};
  }
  // Throughput-only records (imported results): one value of a shared headline metric per record.
  for (const auto& metric : headline_metrics()) {
    ComparedMeasure ma{metric.name, metric.better, {}}, mb{metric.name, metric.better, {}};
    auto collect = [&](const MeasuredCase& c, ComparedMeasure& m) {
      for (const auto& metrics : c.record_metrics) {
        auto it = metrics.find(metric.name);
        if (it == metrics.end() || !it->is_number())
          return false;
        m.values.push_back(it->get<double>());
      }
      return !m.values.empty();
    };
    if (collect(a, ma) && collect(b, mb))
      return std::pair{std::move(ma), std::move(mb)};
  }
  return std::nullopt;
}

CaseMatch match_cases(const CaseIndex& a, const CaseIndex& b) {
  CaseMatch match;
  for (const auto& c : a.measured) {
    if (const MeasuredCase* other = b.find(c.key.id()))
      match.both.emplace_back(&c, other);
  }
  match.only_in_a = missing_from(a, b);
  match.only_in_b = missing_from(b, a);
  return match;
}

} // namespace cb
