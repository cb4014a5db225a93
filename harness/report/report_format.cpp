#include "report/report_format.hpp"

#include <cmath>
#include <cstdio>

#include "results/metric_table.hpp"

namespace cb::report {

std::string format_figure(double value, int digits) {
  if (!std::isfinite(value))
    return "-";
  char buffer[64];
  const double magnitude = std::fabs(value);
  if (value == 0)
    return "0";
  if (magnitude < 1e-3 || magnitude >= 1e7) {
    std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, value);
    return buffer;
  }
  // Decimals so that `digits` significant digits show, never fewer than none.
  const int integer_digits = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
  const int decimals = std::max(0, digits - integer_digits);
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string format_percent(std::optional<double> fraction, int decimals) {
  if (!fraction || !std::isfinite(*fraction))
    return "-";
  char buffer[64];
  const double percent = *fraction * 100;
  // Under 1 % the fixed decimals would print 0.0: two significant digits say how small.
  if (percent != 0 && std::fabs(percent) < 1 && decimals > 0) {
    std::snprintf(buffer, sizeof buffer, "%.2g %%", percent);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.*f %%", decimals, percent);
  }
  return buffer;
}

std::string format_cost_overhead(double overhead) {
  if (!std::isfinite(overhead))
    return "-";
  if (overhead <= 1)
    return format_signed_percent(overhead);
  return format_figure(1 + overhead, 3) + "×";
}

std::string format_signed_percent(double fraction, int decimals) {
  if (!std::isfinite(fraction))
    return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.*f %%", decimals, fraction * 100);
  return buffer;
}

std::string gpus_text(int n) {
  return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

std::string format_count(double value) {
  if (!std::isfinite(value))
    return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.0f", std::fabs(value));
  std::string digits = buffer;
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      grouped += ',';
    grouped += digits[i];
  }
  return (value < 0 && digits != "0" ? "-" : "") + grouped;
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
