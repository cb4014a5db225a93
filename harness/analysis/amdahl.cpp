#include "analysis/amdahl.hpp"

#include <cmath>

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
  // The unbounded linear estimate above 1 means S(N) > N somewhere: faster than linear.
  if (p >= 1 && start > 1 + 1e-9) {
    fit.warnings.push_back("superlinear speedup: the serial fraction is held at 0");
  }
  return fit;
}

} // namespace cb
