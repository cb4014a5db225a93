#pragma once
// Small dense least squares for the scaling models: linear fits on two or three columns (normal
// equations) and a bounded Levenberg-Marquardt for the non-linear ones. The problems here have at
// most a handful of parameters and a few dozen points, so plain Gaussian elimination is enough.
#include <functional>
#include <optional>
#include <vector>

namespace cb {

// Solves A x = b (A square, row-major) by Gaussian elimination with partial pivoting. nullopt when
// A is singular or the solution is not finite.
std::optional<std::vector<double>> solve_linear_system(std::vector<std::vector<double>> a,
                                                       std::vector<double> b);

// Weighted linear least squares y ~ sum_j coef_j * columns[j] (no intercept unless one of the
// columns is all ones). Empty weights = all ones. nullopt when the columns are linearly dependent.
std::optional<std::vector<double>>
linear_least_squares(const std::vector<std::vector<double>>& columns, const std::vector<double>& y,
                     const std::vector<double>& weights = {});

struct NonnegativeFit {
  std::vector<double> coef;
  std::vector<bool> held_at_zero; // coefficients the unconstrained fit wanted below zero
};

// The same with every coefficient >= 0: the best of the fits on each subset of the columns, the
// others held at zero (exact for the two or three columns used here). nullopt when no subset fits.
std::optional<NonnegativeFit>
nonnegative_least_squares(const std::vector<std::vector<double>>& columns,
                          const std::vector<double>& y, const std::vector<double>& weights = {});

// Coefficient of determination 1 - SS_res / SS_tot (about the weighted mean, both sums weighted
// when weights are given); 1 for a perfect fit of constant data.
double r_squared(const std::vector<double>& observed, const std::vector<double>& fitted,
                 const std::vector<double>& weights = {});

// A model y = f(params, x); writes df/dparams into gradient (already sized).
using ModelFunction = std::function<double(const std::vector<double>& params, double x,
                                           std::vector<double>& gradient)>;

struct LevenbergMarquardtOptions {
  int max_iterations = 1000;
  double relative_tolerance = 1e-14; // on the sum of squares and on the parameters
};

struct LevenbergMarquardtResult {
  std::vector<double> params;
  double sum_of_squares = 0;
  int iterations = 0;
  bool converged = false;
  // Parameters that ended on a bound with the gradient pushing past it.
  std::vector<bool> at_bound;
};

// Minimises sum_i (y_i - f(params, x_i))^2 with lower <= params <= upper. Steps are projected
// onto the box, and a parameter held at a bound by the gradient is left out of the step (a simple
// active set), so the search keeps moving along the free parameters.
LevenbergMarquardtResult
levenberg_marquardt(const ModelFunction& model, const std::vector<double>& x,
                    const std::vector<double>& y, std::vector<double> start,
                    const std::vector<double>& lower, const std::vector<double>& upper,
                    const LevenbergMarquardtOptions& options = {});

} // namespace cb
