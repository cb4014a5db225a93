#include "exporters/qualify_prometheus.hpp"

#include "exporters/exported_parts.hpp"
#include "exporters/fleet_figures.hpp"
#include "exporters/prometheus_names.hpp"

namespace cb {
namespace {

constexpr Verdict kVerdicts[] = {Verdict::pass, Verdict::fail, Verdict::inconclusive};

void add_verdict(PromDocument& doc, const std::string& name, const std::string& help,
                 std::vector<PromLabel> labels, Verdict verdict) {
  for (const Verdict v : kVerdicts) {
    auto with_state = labels;
    with_state.push_back({"verdict", std::string(verdict_name(v))});
    doc.add(name, help, std::move(with_state), v == verdict ? 1 : 0);
  }
}

void add_row(PromDocument& doc, const std::string& spec, const CheckRow& row) {
  const Expectation& c = row.check;
  const std::vector<PromLabel> labels = {
      {"spec", spec}, {"check", c.id}, {"metric", c.metric}, {"record", row.record}};
  add_verdict(doc, "clusterbench_qualify_check_verdict",
              "1 for the verdict of the check on this record, 0 for the others", labels,
              row.verdict);
  doc.add("clusterbench_qualify_check_pass", "1 when the check passed on this record, else 0",
          labels, row.verdict == Verdict::pass ? 1 : 0);
  if (c.kind == CheckKind::data) {
    if (row.measured) {
      doc.add("clusterbench_qualify_check_records_verified",
              "Records of the data check that verified their data", labels, *row.measured);
      doc.add("clusterbench_qualify_check_records_checked",
              "Records of the data check that checked their data", labels, row.threshold);
    }
    return;
  }
  const PromMetricName name = prometheus_metric_name(c.metric);
  if (row.measured) {
    doc.add("clusterbench_qualify_check_measured_" + name.suffix,
            "The figure the check judged (" + c.metric + ")", labels, *row.measured * name.scale);
  }
  doc.add("clusterbench_qualify_check_required_" + name.suffix,
          "The figure the check needed: fraction x expected (" + c.metric +
              "; a latency or time at most this, else at least)",
          labels, row.threshold * name.scale);
  doc.add("clusterbench_qualify_check_expected_" + name.suffix,
          "The spec's expected figure (" + c.metric + ")", labels, c.expected * name.scale);
  if (row.ratio) {
    doc.add("clusterbench_qualify_check_ratio",
            "Performance relative to the expected figure (passes at or above the fraction)", labels,
            *row.ratio);
  }
}

std::vector<PromLabel> member_labels(const std::string& spec, const Suspect& s) {
  auto text = [](int n) { return n >= 0 ? std::to_string(n) : std::string(); };
  return {{"spec", spec},
          {"kind", std::string(fleet_kind_name(s.kind))},
          {"Hostname", s.who.host},
          {"gpu", text(s.who.device)},
          {"UUID", s.who.uuid},
          {"pci_bus_id", s.who.pci_bus_id},
          {"rank", text(s.who.rank)},
          {"peer_Hostname", s.to.host},
          {"peer_gpu", text(s.to.device)},
          {"peer_UUID", s.to.uuid},
          {"peer_pci_bus_id", s.to.pci_bus_id},
          {"via_links", s.via_links ? "true" : ""}};
}

std::vector<PromLabel> culprit_labels(const std::string& spec, const FleetCulprit& c) {
  return {{"spec", spec},
          {"kind", c.kind},
          {"Hostname", c.host},
          {"gpu", c.gpu >= 0 ? std::to_string(c.gpu) : std::string()},
          {"UUID", c.uuid},
          {"pci_bus_id", c.pci_bus_id},
          {"direction", c.direction},
          {"switch", c.switch_name}};
}

} // namespace

PromDocument qualify_prometheus(const QualifyReport& report, const ResultsFile& results) {
  PromDocument doc;
  const std::string spec = report.spec.name;
  add_verdict(doc, "clusterbench_qualify_verdict",
              "1 for the qualification's verdict, 0 for the others", {{"spec", spec}},
              report.overall);
  doc.add("clusterbench_qualify_pass", "1 when the qualification passed, else 0", {{"spec", spec}},
          report.overall == Verdict::pass ? 1 : 0);
  const std::pair<Verdict, int> counts[] = {{Verdict::pass, report.passed},
                                            {Verdict::fail, report.failed},
                                            {Verdict::inconclusive, report.inconclusive}};
  for (const auto& [verdict, n] : counts) {
    doc.add("clusterbench_qualify_checks", "Judged rows (and the fleet row) by verdict",
            {{"spec", spec}, {"verdict", std::string(verdict_name(verdict))}}, n);
  }
  for (const auto& row : report.rows)
    add_row(doc, spec, row);
  if (report.fleet_verdict) {
    add_verdict(doc, "clusterbench_qualify_fleet_verdict",
                "1 for the fleet rules' verdict, 0 for the others", {{"spec", spec}},
                *report.fleet_verdict);
  }
  const FleetReport& fleet = report.fleet;
  const auto& culprits = report.culprits.culprits;
  doc.add("clusterbench_qualify_culprits",
          "Parts the diagnosis names (each fails the fleet): all of them", {{"spec", spec}},
          static_cast<double>(culprits.size()));
  for (std::size_t i = 0; i < culprits.size() && i < kMaxExportedSuspects; ++i) {
    doc.add("clusterbench_qualify_culprit_factor",
            "A culprit's figures against the typical figure (below 1 is slower); the first " +
                std::to_string(kMaxExportedSuspects) + " culprits",
            culprit_labels(spec, culprits[i]), culprits[i].factor);
  }
  doc.add("clusterbench_qualify_fleet_outliers",
          "Outlier findings of the fleet rules (evidence: they warn; culprits fail)",
          {{"spec", spec}}, static_cast<double>(fleet.failing()));
  doc.add("clusterbench_qualify_suspects",
          "Parts the outliers point at, each record alone (evidence: they warn)", {{"spec", spec}},
          static_cast<double>(fleet.suspects.size()));
  for (std::size_t i = 0; i < fleet.suspects.size() && i < kMaxExportedSuspects; ++i) {
    const Suspect& s = fleet.suspects[i];
    doc.add("clusterbench_qualify_suspect_ratio",
            "A named part's worst figure relative to its fleet median (below 1 is worse); "
            "the first " +
                std::to_string(kMaxExportedSuspects) + " parts named",
            member_labels(spec, s), s.worst_ratio);
    doc.add("clusterbench_qualify_suspect_findings", "Outlier findings that name the part",
            member_labels(spec, s), s.outliers);
  }
  add_fleet_figures(doc, results, "qualify");
  return doc;
}

std::string qualify_prometheus_text(const QualifyReport& report, const ResultsFile& results) {
  return qualify_prometheus(report, results)
      .text("qualify " + report.results_path + " --spec " + report.spec.name + ": " +
            std::string(verdict_name(report.overall)));
}

} // namespace cb
