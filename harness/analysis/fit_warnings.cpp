#include "analysis/fit_warnings.hpp"

#include <cmath>
#include <set>
#include <sstream>

namespace cb {
namespace {

// Relative RMS of the residuals below which a fit is taken as exact: far above rounding error
// (the fitters stop near 1e-7 relative), far below any measurement noise (0.1 % and up).
constexpr double kExactResidual = 1e-6;

std::string number(double v) {
  std::ostringstream out;
  out.precision(3);
  out << v;
  return out.str();
}

} // namespace

int distinct_counts(const std::vector<double>& n, bool skip_one) {
  std::set<double> seen;
  for (double v : n) {
    if (!(skip_one && v == 1))
      seen.insert(v);
  }
  return static_cast<int>(seen.size());
}

std::optional<std::string> exact_fit_warning(int counts, int parameters,
                                             const std::string& parameter_names) {
  if (counts > parameters)
    return std::nullopt;
  return std::to_string(counts) + " informative GPU count" + (counts == 1 ? "" : "s") + " for " +
         std::to_string(parameters) + " parameters (" + parameter_names +
         "): none is left over to test the law, so its R² says little about it; measure at " +
         std::to_string(parameters + 1) + " or more GPU counts";
}

std::optional<std::string> negative_r2_warning(double r2) {
  if (!(r2 < 0))
    return std::nullopt;
  return "R² = " + number(r2) +
         " < 0: the law describes these points worse than their mean does; its parameters and "
         "predictions do not describe this curve";
}

bool fits_exactly(const std::vector<double>& observed, const std::vector<double>& fitted) {
  double residual = 0, scale = 0;
  for (std::size_t i = 0; i < observed.size() && i < fitted.size(); ++i) {
    residual += (observed[i] - fitted[i]) * (observed[i] - fitted[i]);
    scale += observed[i] * observed[i];
  }
  return residual <= kExactResidual * kExactResidual * scale;
}

std::string held_at_bound_warning(const std::vector<std::string>& names, const std::string& side,
                                  double bound, const std::string& why) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  const bool one = names.size() == 1;
  return list + (one ? " held at its " : " held at their ") + side + " bound " + number(bound) +
         ": " + why;
}

} // namespace cb
