#include "verdicts/compare_runs.hpp"

#include <cmath>

#include "core/stats.hpp"
#include "verdicts/run_level_test.hpp"

namespace cb {
namespace {

std::vector<double> run_figures(const RunSide& side, const std::string& id,
                                const std::string& quantity) {
  std::vector<double> values;
  for (const auto& run : side.runs) {
    const CaseFigures* f = run.find(id);
    const double v = f ? figure_of(*f, quantity) : std::nan("");
    if (std::isfinite(v) && v > 0)
      values.push_back(v);
  }
  return values;
}

} // namespace

void contrast_across_runs(ClusterComparison& comparison, const RunSide& a, const RunSide& b,
                          const CompareOptions& options) {
  for (CaseContrast& c : comparison.cases) {
    if (c.basis.empty())
      continue;
    const std::string id = c.key.id();
    const std::vector<double> va = run_figures(a, id, c.basis), vb = run_figures(b, id, c.basis);
    c.a_runs = va.size();
    c.b_runs = vb.size();
    if (va.size() < 2 || vb.size() < 2)
      continue;
    const Better better = better_of(c.basis);
    // Speed of B over A: lower-is-better figures are inverted by swapping the sides.
    c.speed = better == Better::higher ? bootstrap_median_ratio(va, vb, options.bootstrap)
                                       : bootstrap_median_ratio(vb, va, options.bootstrap);
    const RunLevelResult test = compare_runs(va, vb, {options.significance, 0.8});
    c.p_value = test.p_value;
    c.a_count = va.size();
    c.b_count = vb.size();
    c.too_few = false;
    c.significant = test.p_value < options.significance;
    c.across_runs = true;
    if (c.basis == kTimeQuantity) {
      c.a_time_s = median(va);
      c.b_time_s = median(vb);
    } else if (c.basis == c.metric) {
      c.a_metric = median(va);
      c.b_metric = median(vb);
    }
  }
}

} // namespace cb
