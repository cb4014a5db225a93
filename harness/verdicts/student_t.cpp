#include "verdicts/student_t.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace cb {
namespace {

// The continued fraction of I_x(a, b) (Numerical Recipes 6.4), converging fast for
// x < (a + 1) / (a + b + 2); the caller uses the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) otherwise.
double beta_continued_fraction(double x, double a, double b) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < kTiny)
    d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny)
      d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny)
      c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny)
      d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny)
      c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < kEpsilon)
      break;
  }
  return h;
}

} // namespace

double regularized_incomplete_beta(double x, double a, double b) {
  if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1))
    throw std::invalid_argument("regularized_incomplete_beta: a, b > 0 and 0 <= x <= 1");
  if (x == 0 || x == 1)
    return x;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1) / (a + b + 2))
    return front * beta_continued_fraction(x, a, b) / a;
  return 1 - front * beta_continued_fraction(1 - x, b, a) / b;
}

double student_t_cdf(double t, double df) {
  if (!(df > 0))
    throw std::invalid_argument("student_t_cdf: df must be > 0");
  if (std::isnan(t))
    return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t))
    return t > 0 ? 1.0 : 0.0;
  const double tail = 0.5 * regularized_incomplete_beta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0))
    throw std::invalid_argument("student_t_quantile: 0 < p < 1 and df > 0");
  if (p == 0.5)
    return 0;
  if (p < 0.5)
    return -student_t_quantile(1 - p, df);
  // Bracket, then bisect: the CDF is monotone, and a few dozen halvings reach double precision
  // even for df = 1, whose tail is the heaviest (Cauchy).
  double low = 0, high = 1;
  while (student_t_cdf(high, df) < p && high < 1e12)
    high *= 2;
  for (int i = 0; i < 200 && (high - low) > 1e-12 * high; ++i) {
    const double mid = 0.5 * (low + high);
    (student_t_cdf(mid, df) < p ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

} // namespace cb
