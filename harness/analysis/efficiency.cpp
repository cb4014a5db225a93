#include "analysis/efficiency.hpp"

#include "results/suite_names.hpp"

namespace cb {

std::optional<ScalingSeries> scaling_series(const Curve& curve) {
  if (!is_throughput_metric(curve.key.metric))
    return std::nullopt;
  const bool collective = curve.key.suite == suite_names::kCollectives;
  // busbw is per GPU and nothing crosses a link on one GPU, so collectives start at two.
  const int first_usable = collective ? 2 : 1;
  const int wanted_base = first_usable;
  ScalingSeries series;
  for (std::size_t i = 0; i < curve.gpus.size(); ++i) {
    if (curve.gpus[i] < first_usable || curve.value[i] <= 0)
      continue;
    const double n = curve.gpus[i];
    series.n.push_back(n);
    series.x.push_back(collective ? n * curve.value[i] : curve.value[i]);
  }
  if (series.n.empty())
    return std::nullopt;
  series.base_gpus = static_cast<int>(series.n.front());
  // X1 so that E(base) = 1: X(1) itself, or busbw(2) for collectives.
  series.x1 = series.x.front() / series.n.front();
  if (series.base_gpus != wanted_base) {
    series.warnings.push_back(
        "no " + std::to_string(wanted_base) + "-GPU point: efficiency is relative to " +
        std::to_string(series.base_gpus) + " GPUs, assuming perfect scaling up to there");
  }
  return series;
}

Efficiency efficiency(const Curve& curve) {
  Efficiency result;
  result.value.assign(curve.gpus.size(), std::nullopt);
  auto series = scaling_series(curve);
  if (!series) {
    result.warnings.push_back(is_throughput_metric(curve.key.metric)
                                  ? "no positive throughput to take efficiency from"
                                  : curve.key.metric + " is not a throughput: no efficiency");
    return result;
  }
  result.base_gpus = series->base_gpus;
  result.warnings = series->warnings;
  std::size_t next = 0;
  for (std::size_t i = 0; i < curve.gpus.size() && next < series->n.size(); ++i) {
    if (curve.gpus[i] != static_cast<int>(series->n[next]))
      continue;
    result.value[i] = series->x[next] / (series->n[next] * series->x1);
    ++next;
  }
  return result;
}

} // namespace cb
