#include "exporters/fleet_figures.hpp"

#include <cmath>
#include <map>
#include <optional>

#include "exporters/prometheus_names.hpp"
#include "results/metric_table.hpp"
#include "results/params_text.hpp"
#include "results/rank_identity.hpp"

namespace cb {
namespace {

bool usable(const Record& r) {
  return (r.status == RecordStatus::ok || r.status == RecordStatus::noisy) &&
         r.per_rank.is_array() && !r.per_rank.empty();
}

std::optional<double> number_in(const nlohmann::json& entry, const std::string& key) {
  if (!entry.is_object())
    return std::nullopt;
  const auto it = entry.find(key);
  if (it == entry.end() || !it->is_number())
    return std::nullopt;
  const double v = it->get<double>();
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// The first per-rank figure of the table the record's entries carry; empty when none.
std::string figure_of(const Record& r) {
  for (const MetricDefinition* m : per_rank_metric_definitions()) {
    for (const auto& entry : r.per_rank) {
      if (number_in(entry, m->name))
        return m->name;
    }
  }
  return "";
}

// The record's own figure (its aggregate), to choose between records of one GPU count.
double record_figure(const Record& r, const std::string& figure) {
  const auto v = number_in(r.metrics, figure);
  return v ? *v : -INFINITY;
}

std::string text_field(const Record& r, const nlohmann::json& entry, const std::string& key) {
  const nlohmann::json v = rank_field(r, entry, key);
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_number_integer())
    return std::to_string(v.get<long long>());
  return "";
}

struct Chosen {
  const Record* record = nullptr;
  std::string figure;
};

// DCGM's `gpu` label is nvidia-smi's number: the NVML index where the run recorded it, else the
// backend's device ordinal (with one visible GPU per rank every CUDA ordinal is 0).
std::string gpu_number(const Record& r, const nlohmann::json& entry) {
  const std::string index = text_field(r, entry, "nvml_index");
  return index.empty() ? text_field(r, entry, "device") : index;
}

void add_record(PromDocument& doc, const Chosen& chosen, const std::string& command) {
  const Record& r = *chosen.record;
  const PromMetricName name = prometheus_metric_name(chosen.figure);
  const MetricDefinition* def = find_metric(chosen.figure);
  const std::string what = def && !def->label.empty() ? def->label : chosen.figure;
  const std::string params = describe_params(r.params);
  struct NodeSum {
    double sum = 0;
    int gpus = 0;
  };
  std::map<std::string, NodeSum> nodes;
  for (const auto& entry : r.per_rank) {
    const auto value = number_in(entry, chosen.figure);
    if (!value)
      continue;
    const std::string host = text_field(r, entry, "host");
    doc.add("clusterbench_gpu_" + name.suffix,
            "Each GPU's own " + what + " (" + chosen.figure +
                ") in the case's record at its largest GPU count",
            {{"command", command},
             {"suite", r.suite},
             {"case", r.case_name},
             {"params", params},
             {"Hostname", host},
             {"gpu", gpu_number(r, entry)},
             {"UUID", text_field(r, entry, "uuid")},
             {"pci_bus_id", text_field(r, entry, "pci_bus_id")},
             {"rank", text_field(r, entry, "rank")}},
            *value * name.scale);
    if (!host.empty()) {
      nodes[host].sum += *value;
      ++nodes[host].gpus;
    }
  }
  for (const auto& [host, node] : nodes) {
    doc.add("clusterbench_node_" + name.suffix,
            "Each node's mean per GPU of its GPUs' own " + what + " (" + chosen.figure +
                ") in the case's record at its largest GPU count",
            {{"command", command},
             {"suite", r.suite},
             {"case", r.case_name},
             {"params", params},
             {"Hostname", host},
             {"gpus", std::to_string(node.gpus)}},
            node.sum / node.gpus * name.scale);
  }
}

} // namespace

void add_fleet_figures(PromDocument& doc, const ResultsFile& results, const std::string& command) {
  std::map<std::pair<std::string, std::string>, Chosen> by_case;
  std::vector<std::pair<std::string, std::string>> order;
  for (const Record& r : results.records) {
    if (!usable(r))
      continue;
    const std::string figure = figure_of(r);
    if (figure.empty())
      continue;
    const auto key = std::make_pair(r.suite, r.case_name);
    auto [it, added] = by_case.try_emplace(key, Chosen{&r, figure});
    if (added) {
      order.push_back(key);
      continue;
    }
    Chosen& best = it->second;
    const bool more_gpus = r.gpus > best.record->gpus;
    const bool better = r.gpus == best.record->gpus && figure == best.figure &&
                        record_figure(r, figure) > record_figure(*best.record, figure);
    if (more_gpus || better)
      best = Chosen{&r, figure};
  }
  for (const auto& key : order)
    add_record(doc, by_case.at(key), command);
}

} // namespace cb
