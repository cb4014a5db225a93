#include "analysis/usl.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

#include "analysis/least_squares.hpp"
#include "core/error.hpp"

namespace cb {
namespace {

constexpr int kMinimumPoints = 3;

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Checks shared by both methods; false (with a warning) when no fit can be made.
bool usable_input(const std::vector<double>& n, const std::vector<double>& x, UslFit& fit) {
  fit.points = static_cast<int>(n.size());
  if (n.size() != x.size()) {
    fit.warnings.push_back("GPU counts and throughputs differ in length");
    return false;
  }
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (!(n[i] > 0) || !(x[i] > 0) || !std::isfinite(n[i]) || !std::isfinite(x[i])) {
      fit.warnings.push_back("every N and X must be a positive number (point " +
                             std::to_string(i + 1) + ")");
      return false;
    }
  }
  if (fit.points < kMinimumPoints) {
    fit.warnings.push_back("needs at least 3 points to fit alpha, beta and gamma, have " +
                           std::to_string(fit.points));
    return false;
  }
  return true;
}

std::optional<double> reference_throughput(const std::vector<double>& n,
                                           const std::vector<double>& x, std::optional<double> x1) {
  if (x1)
    return x1;
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (n[i] == 1)
      return x[i];
  }
  return std::nullopt;
}

// Gunther's linearisation: with C = X/X(1), N/C - 1 = beta (N-1)^2 + (alpha + beta)(N-1).
std::optional<std::array<double, 2>>
linearised_alpha_beta(const std::vector<double>& n, const std::vector<double>& x, double x1) {
  std::vector<double> squared, linear, y;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double c = x[i] / x1;
    squared.push_back((n[i] - 1) * (n[i] - 1));
    linear.push_back(n[i] - 1);
    y.push_back(n[i] / c - 1);
  }
  auto coef = linear_least_squares({squared, linear}, y);
  if (!coef)
    return std::nullopt;
  const double beta = (*coef)[0];
  return std::array<double, 2>{(*coef)[1] - beta, beta};
}

double usl_point(const std::vector<double>& p, double n, std::vector<double>& gradient) {
  const double alpha = p[0], beta = p[1], gamma = p[2];
  const double denominator = 1 + alpha * (n - 1) + beta * n * (n - 1);
  const double value = gamma * n / denominator;
  gradient[0] = -value * (n - 1) / denominator;
  gradient[1] = -value * n * (n - 1) / denominator;
  gradient[2] = n / denominator;
  return value;
}

void fit_nls(const std::vector<double>& n, const std::vector<double>& x, std::optional<double> x1,
             UslFit& fit) {
  // The linearised fit is a good start; a contention-free start and a mildly contended one guard
  // against it landing in the wrong valley. The lowest sum of squares wins.
  const std::size_t smallest =
      static_cast<std::size_t>(std::min_element(n.begin(), n.end()) - n.begin());
  const double gamma_guess = x1 ? *x1 : x[smallest] / n[smallest];
  std::vector<std::vector<double>> starts;
  if (auto ab = linearised_alpha_beta(n, x, gamma_guess)) {
    starts.push_back({(*ab)[0], (*ab)[1], gamma_guess});
  }
  starts.push_back({0.0, 0.0, gamma_guess});
  starts.push_back({0.1, 1e-3, gamma_guess});
  const std::vector<double> lower{0, 0, 0};
  const std::vector<double> upper{1, 1, std::numeric_limits<double>::infinity()};
  std::optional<LevenbergMarquardtResult> best;
  for (const auto& start : starts) {
    auto result = levenberg_marquardt(usl_point, n, x, start, lower, upper);
    if (!std::isfinite(result.sum_of_squares))
      continue;
    if (!best || result.sum_of_squares < best->sum_of_squares)
      best = std::move(result);
  }
  if (!best) {
    fit.warnings.push_back("the non-linear fit found no finite solution");
    return;
  }
  if (!best->converged) {
    fit.warnings.push_back("the non-linear fit stopped after " + std::to_string(best->iterations) +
                           " iterations without converging");
  }
  fit.alpha = best->params[0];
  fit.beta = best->params[1];
  fit.gamma = best->params[2];
  fit.ok = true;
}

void fit_linearised(const std::vector<double>& n, const std::vector<double>& x,
                    std::optional<double> x1, UslFit& fit) {
  if (!x1) {
    fit.warnings.push_back("the linearised method needs X(1): a point at n = 1");
    return;
  }
  auto ab = linearised_alpha_beta(n, x, *x1);
  if (!ab) {
    fit.warnings.push_back(
        "the linearised fit is singular (the points do not span two GPU counts above 1)");
    return;
  }
  fit.alpha = (*ab)[0];
  fit.beta = (*ab)[1];
  fit.gamma = *x1;
  fit.ok = true;
  if (fit.alpha < 0 || fit.alpha > 1) {
    fit.warnings.push_back("alpha = " + number(fit.alpha) + " lies outside [0, 1]");
  }
}

// N* = sqrt((1 - alpha) / beta) exists only for beta > 0 and alpha < 1.
void find_peak(UslFit& fit) {
  if (fit.beta <= 0) {
    fit.warnings.push_back(fit.beta == 0 ? "no peak: contention-free (beta = 0)"
                                         : "no peak: beta = " + number(fit.beta) +
                                               " < 0 (throughput grows faster than linearly)");
    return;
  }
  if (fit.alpha >= 1) {
    fit.warnings.push_back("no peak: alpha = " + number(fit.alpha) +
                           " >= 1 (no gain from scaling)");
    return;
  }
  fit.n_peak = std::sqrt((1 - fit.alpha) / fit.beta);
  fit.peak_throughput = fit.throughput(*fit.n_peak);
}

} // namespace

std::string_view usl_method_name(UslMethod method) {
  return method == UslMethod::nls ? "nls" : "linearised";
}

UslMethod usl_method_from_name(std::string_view name, std::string_view flag) {
  if (name == "nls")
    return UslMethod::nls;
  if (name == "linearised" || name == "linearized")
    return UslMethod::linearised;
  throw InputError(std::string(flag) + ": expected nls or linearised, got '" + std::string(name) +
                   "'");
}

double usl_throughput(double alpha, double beta, double gamma, double n) {
  return gamma * n / (1 + alpha * (n - 1) + beta * n * (n - 1));
}

UslFit fit_usl(const std::vector<double>& n, const std::vector<double>& x, UslMethod method,
               std::optional<double> x1) {
  UslFit fit;
  fit.method = method;
  if (!usable_input(n, x, fit))
    return fit;
  const auto reference = reference_throughput(n, x, x1);
  if (method == UslMethod::nls) {
    fit_nls(n, x, reference, fit);
  } else {
    fit_linearised(n, x, reference, fit);
  }
  if (!fit.ok)
    return fit;
  if (!std::isfinite(fit.alpha) || !std::isfinite(fit.beta) || !std::isfinite(fit.gamma)) {
    fit.ok = false;
    fit.warnings.push_back("the fit gave non-finite parameters");
    return fit;
  }
  std::vector<double> fitted;
  for (double v : n)
    fitted.push_back(fit.throughput(v));
  fit.r2 = r_squared(x, fitted);
  if (!std::isfinite(fit.r2)) {
    fit.ok = false;
    fit.warnings.push_back("the fitted curve is not finite at the measured points");
    return fit;
  }
  find_peak(fit);
  return fit;
}

} // namespace cb
