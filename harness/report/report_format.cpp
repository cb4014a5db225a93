#include "report/report_format.hpp"

#include <cmath>

#include "results/metric_table.hpp"

namespace cb::report {

std::string format_cost_overhead(double overhead) {
  if (!std::isfinite(overhead))
    return "-";
  if (overhead <= 1)
    return format_signed_percent(overhead);
  return format_figure(1 + overhead, 3) + "×";
}

std::string gpus_text(int n) {
  return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

std::string metric_label(const std::string& metric) {
  const MetricDefinition* m = find_metric(metric);
  if (!m)
    return metric;
  if (m->unit.empty()) // a fraction or a count
    return m->short_name.empty() ? metric : m->short_name;
  return m->short_name.empty() ? m->unit : m->short_name + " (" + m->unit + ")";
}

} // namespace cb::report
