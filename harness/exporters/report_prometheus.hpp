#pragma once
// `report --prometheus`: what a report says, as a Prometheus textfile. Each curve shown (a case
// at its largest problem size per configuration) by GPU count: its headline figure, its scaling
// efficiency and how its slowest GPU fared against the median; each part's predicted efficiency
// at the outlook counts and where it first falls under the threshold; the slowest GPUs named;
// the record counts; and every GPU's and node's own figures (fleet_figures.hpp).
// docs/ECOSYSTEM.md lists the names.
#include <string>

#include "exporters/prometheus_text.hpp"
#include "report/report_data.hpp"
#include "results/record.hpp"

namespace cb {

PromDocument report_prometheus(const report::ReportData& data, const ResultsFile& results);
std::string report_prometheus_text(const report::ReportData& data, const ResultsFile& results);

} // namespace cb
