#pragma once
// Student's t distribution: the CDF and its inverse, for tests on a handful of run-level figures
// (two to a few dozen runs a side), where the normal approximation would overstate significance.
namespace cb {

// P(T <= t) for T with `df` degrees of freedom (df > 0, not necessarily whole: Welch's
// Satterthwaite df is fractional). Through the regularized incomplete beta function,
// I_x(df/2, 1/2) with x = df / (df + t^2) (Abramowitz & Stegun 26.7.1; the continued fraction of
// Numerical Recipes 6.4, evaluated by the modified Lentz method).
double student_t_cdf(double t, double df);

// The t with P(T <= t) = p, 0 < p < 1, by bisection on student_t_cdf, to 1e-12
// relative: t(0.975, 4) = 2.776445, t(0.995, 1) = 63.65674.
double student_t_quantile(double p, double df);

// The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1.
double regularized_incomplete_beta(double x, double a, double b);

} // namespace cb
