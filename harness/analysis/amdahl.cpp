#include "analysis/amdahl.hpp"

#include <cmath>

#include "analysis/fit_warnings.hpp"
#include "analysis/least_squares.hpp"

namespace cb {

double amdahl_speedup(double serial_fraction, double n) {
  return 1.0 / (serial_fraction + (1.0 - serial_fraction) / n);
}

AmdahlFit fit_amdahl(const std::vector<double>& n, const std::vector<double>& speedup) {
  AmdahlFit fit;
  fit.points = static_cast<int>(n.size());
  if (n.size() != speedup.size()) {
    fit.warnings.push_back("GPU counts and speedups differ in length");
    return fit;
  }
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (!(n[i] > 0) || !(speedup[i] > 0) || !std::isfinite(n[i]) || !std::isfinite(speedup[i])) {
      fit.warnings.push_back("every N and speedup must be a positive number (point " +
                             std::to_string(i + 1) + ")");
      return fit;
    }
  }
  if (fit.points < 3) {
    fit.warnings.push_back("needs at least 3 points, have " + std::to_string(fit.points));
    return fit;
  }
  if (const int counts = distinct_counts(n); counts < 3) {
    fit.warnings.push_back("needs at least 3 different GPU counts, have " + std::to_string(counts) +
                           " among " + std::to_string(fit.points) + " points");
    return fit;
  }
  // Start from the exact linear form 1/S - 1 = -p (1 - 1/N), then fit S itself, which weighs the
  // points the way they were measured.
  std::vector<double> column, y;
  for (std::size_t i = 0; i < n.size(); ++i) {
    column.push_back(1.0 - 1.0 / n[i]);
    y.push_back(1.0 / speedup[i] - 1.0);
  }
  double start = 0.5;
  if (auto coef = linear_least_squares({column}, y))
    start = -(*coef)[0];
  auto model = [](const std::vector<double>& p, double count, std::vector<double>& gradient) {
    const double denominator = (1 - p[0]) + p[0] / count;
    gradient[0] = (1 - 1 / count) / (denominator * denominator);
    return 1 / denominator;
  };
  const auto result = levenberg_marquardt(model, n, speedup, {start}, {0.0}, {1.0});
  const double p = result.params[0];
  if (!std::isfinite(p)) {
    fit.warnings.push_back("the fit gave a non-finite parallel fraction");
    return fit;
  }
  fit.ok = true;
  fit.serial_fraction = 1 - p;
  if (fit.serial_fraction > 0)
    fit.max_speedup = 1 / fit.serial_fraction;
  std::vector<double> fitted;
  for (double v : n)
    fitted.push_back(amdahl_speedup(fit.serial_fraction, v));
  fit.r2 = r_squared(speedup, fitted);
  // Held at a bound against the data: the unbounded linear estimate above 1, or the fit pushing
  // past it, means S(N) > N somewhere (faster than linear); below 0, a slowdown. An exact fit
  // pushes nothing.
  const bool pushed = result.at_bound[0] && !fits_exactly(speedup, fitted);
  if (p >= 1 && (start > 1 + 1e-9 || pushed)) {
    fit.warnings.push_back("superlinear speedup: the serial fraction is held at 0");
  } else if (p <= 0 && (start < -1e-9 || pushed)) {
    fit.warnings.push_back("the speedup falls below 1 as GPUs are added: the serial fraction is "
                           "held at 1, and Amdahl's law cannot describe a slowdown");
  }
  // S(1) = 1 whatever p is: N = 1 tells the one parameter nothing.
  if (auto exact = exact_fit_warning(distinct_counts(n, true), 1, "the parallel fraction"))
    fit.warnings.push_back(*exact);
  if (auto negative = negative_r2_warning(fit.r2))
    fit.warnings.push_back(*negative);
  return fit;
}

} // namespace cb
