#include "exporters/report_prometheus.hpp"

#include <cmath>

#include "exporters/exported_parts.hpp"
#include "exporters/fleet_figures.hpp"
#include "exporters/prometheus_names.hpp"
#include "results/params_text.hpp"

namespace cb {
namespace {

using report::CurveReport;
using report::ReportData;

void add_counts(PromDocument& doc, const report::RecordCounts& counts) {
  const std::pair<const char*, std::size_t> by_status[] = {{"ok", counts.ok},
                                                           {"noisy", counts.noisy},
                                                           {"skipped", counts.skipped},
                                                           {"failed", counts.failed}};
  for (const auto& [status, n] : by_status) {
    doc.add("clusterbench_report_records", "Records of the results file by status",
            {{"status", status}}, static_cast<double>(n));
  }
}

void add_curve(PromDocument& doc, const CurveReport& curve) {
  const CurveKey& key = curve.curve().key;
  const PromMetricName name = prometheus_metric_name(key.metric);
  const std::string params = describe_params(key.params);
  for (const auto& row : curve.rows) {
    // `metric` keeps two curves of one case apart where their names map to one series name
    // (latency_us and latency_ms are both *_seconds).
    const std::vector<PromLabel> labels = {{"suite", key.suite},
                                           {"case", key.case_name},
                                           {"metric", key.metric},
                                           {"params", params},
                                           {"gpus", std::to_string(row.gpus)},
                                           {"nodes", std::to_string(row.nodes)}};
    doc.add("clusterbench_" + name.suffix,
            "The case's headline figure (" + key.metric + ") at each GPU count measured", labels,
            row.value * name.scale);
    if (row.efficiency) {
      doc.add("clusterbench_scaling_efficiency",
              "Measured scaling efficiency at the GPU count: X(N) / (N X1)", labels,
              *row.efficiency);
    }
    if (row.spread && row.spread->median > 0) {
      doc.add("clusterbench_slowest_gpu_share",
              "The slowest GPU's figure as a share of the median GPU's (1: all even)", labels,
              row.spread->slowest_share());
    }
  }
}

void add_parts(PromDocument& doc, const report::Headline& headline) {
  for (const auto& part : headline.parts) {
    for (const auto& estimate : part.outlook) {
      if (!estimate.efficiency)
        continue;
      doc.add("clusterbench_predicted_scaling_efficiency",
              "A part's scaling efficiency at an outlook GPU count: measured, else predicted "
              "by its fitted law",
              {{"suite", part.suite},
               {"case", part.case_name},
               {"gpus", std::to_string(estimate.gpus)},
               {"from", estimate.from}},
              *estimate.efficiency);
    }
    if (part.limit && part.limit->efficiency) {
      doc.add("clusterbench_efficiency_limit_gpus",
              "The first GPU count where a part's efficiency falls under the report's threshold",
              {{"suite", part.suite}, {"case", part.case_name}, {"from", part.limit->from}},
              part.limit->gpus);
    }
  }
  for (std::size_t i = 0; i < headline.predicted_cost.size(); ++i) {
    const auto& cost = headline.predicted_cost[i];
    doc.add("clusterbench_training_step_efficiency",
            "The predicted data-parallel training step's efficiency at an outlook GPU count",
            {{"gpus", std::to_string(cost.gpus)}}, cost.efficiency);
  }
}

void add_stragglers(PromDocument& doc, const report::Headline& headline) {
  const auto& stragglers = headline.stragglers;
  for (std::size_t i = 0; i < stragglers.size() && i < kMaxExportedSuspects; ++i) {
    doc.add("clusterbench_straggler_share",
            "A GPU slower than its peers: its lowest figure as a share of the median (the "
            "slowest " +
                std::to_string(kMaxExportedSuspects) + ")",
            {{"who", stragglers[i].rank}}, stragglers[i].share);
  }
}

} // namespace

PromDocument report_prometheus(const ReportData& data, const ResultsFile& results) {
  PromDocument doc;
  add_counts(doc, data.counts);
  for (const auto& family : data.families) {
    for (const auto& curve : family.curves)
      add_curve(doc, curve);
  }
  add_parts(doc, data.headline);
  add_stragglers(doc, data.headline);
  add_fleet_figures(doc, results, "report");
  return doc;
}

std::string report_prometheus_text(const ReportData& data, const ResultsFile& results) {
  return report_prometheus(data, results).text("report " + data.source);
}

} // namespace cb
