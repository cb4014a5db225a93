#include "analysis/usl.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

#include "analysis/fit_warnings.hpp"
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
  if (const int counts = distinct_counts(n); counts < kMinimumPoints) {
    fit.warnings.push_back("needs at least 3 different GPU counts to fit alpha, beta and gamma, "
                           "have " +
                           std::to_string(counts) + " among " + std::to_string(fit.points) +
                           " points");
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

// Opening a held bound must raise R² by at least this much for the bound to matter: less, and the
// clamp moves the curve by less than the noise (a GEMM curve flat to 0.1 % up to a drop at the
// largest count pulls alpha a hair below 0, which changes no prediction).
constexpr double kMaterialR2 = 1e-3;
// Per-GPU throughput this much above the smallest count's is super-linear, not noise.
constexpr double kSuperlinear = 1.01;

// The first GPU count whose per-GPU throughput beats the smallest count's: efficiency above 1.
std::optional<double> superlinear_count(const std::vector<double>& n,
                                        const std::vector<double>& x) {
  const std::size_t smallest =
      static_cast<std::size_t>(std::min_element(n.begin(), n.end()) - n.begin());
  const double base = x[smallest] / n[smallest];
  std::optional<double> first;
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (x[i] / n[i] > kSuperlinear * base && (!first || n[i] < *first))
      first = n[i];
  }
  return first;
}

// A parameter the bounds hold where the data want it to go (super-linear points push alpha and
// beta below 0): the fit is then the nearest the law can get, not a description of the points.
// Said only where it matters: the fit with those bounds opened is materially better. True when
// beta is one of them.
bool held_at_bounds(const std::vector<double>& n, const std::vector<double>& x,
                    const LevenbergMarquardtResult& result, const std::vector<double>& lower,
                    const std::vector<double>& upper, UslFit& fit) {
  static const char* const names[] = {"alpha", "beta", "gamma"};
  constexpr double infinity = std::numeric_limits<double>::infinity();
  std::vector<std::string> at_lower, at_upper;
  std::vector<double> open_lower = lower, open_upper = upper;
  bool beta_at_zero = false;
  for (std::size_t j = 0; j < result.params.size() && j < result.at_bound.size(); ++j) {
    if (!result.at_bound[j])
      continue;
    if (result.params[j] <= lower[j]) {
      at_lower.push_back(names[j]);
      open_lower[j] = -infinity;
      beta_at_zero = beta_at_zero || j == 1;
    } else if (result.params[j] >= upper[j]) {
      at_upper.push_back(names[j]);
      open_upper[j] = infinity;
    }
  }
  if (at_lower.empty() && at_upper.empty())
    return false;
  double mean = 0;
  for (double v : x)
    mean += v / static_cast<double>(x.size());
  double total = 0;
  for (double v : x)
    total += (v - mean) * (v - mean);
  // Started where the bounded fit ended, the open fit only accepts steps that lower the sum.
  const auto open = levenberg_marquardt(usl_point, n, x, result.params, open_lower, open_upper);
  const double gain = result.sum_of_squares - open.sum_of_squares;
  if (!std::isfinite(open.sum_of_squares) || !(total > 0) || !(gain >= kMaterialR2 * total))
    return false;
  if (!at_lower.empty()) {
    const auto superlinear = superlinear_count(n, x);
    fit.warnings.push_back(held_at_bound_warning(
        at_lower, "lower", 0,
        superlinear
            ? "the points want less than 0: efficiency is above 1 at " + number(*superlinear) +
                  " GPUs (super-linear scaling), which the law cannot describe"
            : std::string("the points want less than 0: efficiency levels off or rises "
                          "again between counts, which the law's smooth curve cannot "
                          "follow")));
  }
  if (!at_upper.empty()) {
    fit.warnings.push_back(held_at_bound_warning(
        at_upper, "upper", 1,
        "the points want more than 1: throughput falls faster than the law can as GPUs are "
        "added"));
  }
  return beta_at_zero;
}

// True when the bounds hold beta at 0 against the data (see held_at_bounds).
bool fit_nls(const std::vector<double>& n, const std::vector<double>& x, std::optional<double> x1,
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
    return false;
  }
  if (!best->converged) {
    fit.warnings.push_back("the non-linear fit stopped after " + std::to_string(best->iterations) +
                           " iterations without converging");
  }
  fit.alpha = best->params[0];
  fit.beta = best->params[1];
  fit.gamma = best->params[2];
  fit.ok = true;
  return held_at_bounds(n, x, *best, lower, upper, fit);
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
void find_peak(UslFit& fit, bool beta_held_at_zero) {
  if (fit.beta <= 0) {
    if (beta_held_at_zero) {
      fit.warnings.push_back("no peak: beta is held at 0 by its bound, not measured as 0");
    } else {
      fit.warnings.push_back(fit.beta == 0 ? "no peak: contention-free (beta = 0)"
                                           : "no peak: beta = " + number(fit.beta) +
                                                 " < 0 (throughput grows faster than linearly)");
    }
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
  bool beta_held_at_zero = false;
  if (method == UslMethod::nls) {
    beta_held_at_zero = fit_nls(n, x, reference, fit);
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
  // nls fits alpha, beta and gamma to every point; the linearised form takes gamma = X(1) and
  // learns nothing from N = 1, where it is 0 whatever alpha and beta are.
  const auto exact = method == UslMethod::nls
                         ? exact_fit_warning(distinct_counts(n), 3, "alpha, beta, gamma")
                         : exact_fit_warning(distinct_counts(n, true), 2, "alpha, beta");
  if (exact)
    fit.warnings.push_back(*exact);
  if (auto negative = negative_r2_warning(fit.r2))
    fit.warnings.push_back(*negative);
  find_peak(fit, beta_held_at_zero);
  return fit;
}

} // namespace cb
