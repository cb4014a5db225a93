#pragma once
// `qualify --prometheus`: a qualification as a Prometheus textfile for node_exporter's textfile
// collector. The verdict (a 0/1 gauge per state, and _pass), each judged row's measured figure,
// the figure it needed, its ratio and pass, each culprit the fleet rules name (with DCGM's labels:
// Hostname, gpu, UUID), and every GPU's and node's own figures (fleet_figures.hpp).
// docs/ECOSYSTEM.md lists the names.
#include <string>

#include "exporters/prometheus_text.hpp"
#include "qualify/qualify.hpp"
#include "results/record.hpp"

namespace cb {

PromDocument qualify_prometheus(const QualifyReport& report, const ResultsFile& results);
std::string qualify_prometheus_text(const QualifyReport& report, const ResultsFile& results);

} // namespace cb
