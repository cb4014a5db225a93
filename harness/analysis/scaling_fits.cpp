#include "analysis/scaling_fits.hpp"

#include <algorithm>

namespace cb {

bool ScalingAnalysis::has_fits() const {
  const auto ok = [](const auto& fit) { return fit.ok; };
  return std::any_of(curves.begin(), curves.end(), [](const CurveFits& c) { return c.fitted(); }) ||
         std::any_of(hockney.begin(), hockney.end(), ok) ||
         std::any_of(ring_all_reduce.begin(), ring_all_reduce.end(), ok);
}

CurveFits fit_curve(Curve curve) {
  CurveFits fits;
  fits.efficiency = efficiency(curve);
  if (auto series = scaling_series(curve)) {
    fits.usl = fit_usl(series->n, series->x, UslMethod::nls, series->x1);
    fits.usl_linearised = fit_usl(series->n, series->x, UslMethod::linearised, series->x1);
    std::vector<double> speedup;
    for (double x : series->x)
      speedup.push_back(x / series->x1);
    fits.amdahl = fit_amdahl(series->n, speedup);
  }
  fits.curve = std::move(curve);
  return fits;
}

ScalingAnalysis analyse_scaling(const ResultsFile& results) {
  ScalingAnalysis analysis;
  for (auto& curve : extract_curves(results))
    analysis.curves.push_back(fit_curve(std::move(curve)));
  analysis.hockney = fit_hockney(results);
  analysis.ring_all_reduce = fit_ring_all_reduce(results);
  return analysis;
}

} // namespace cb
