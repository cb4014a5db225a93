#include "analysis/least_squares.hpp"

#include <algorithm>
#include <cmath>

namespace cb {

std::optional<std::vector<double>> solve_linear_system(std::vector<std::vector<double>> a,
                                                       std::vector<double> b) {
  const std::size_t n = b.size();
  double scale = 0;
  for (const auto& row : a) {
    for (double v : row)
      scale = std::max(scale, std::abs(v));
  }
  if (scale == 0 || !std::isfinite(scale))
    return std::nullopt;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t row = col + 1; row < n; ++row) {
      if (std::abs(a[row][col]) > std::abs(a[pivot][col]))
        pivot = row;
    }
    // Relative to the matrix's largest entry, so badly scaled but regular systems still solve.
    if (std::abs(a[pivot][col]) <= 1e-300 || std::abs(a[pivot][col]) < scale * 1e-15) {
      return std::nullopt;
    }
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    for (std::size_t row = col + 1; row < n; ++row) {
      const double factor = a[row][col] / a[col][col];
      for (std::size_t k = col; k < n; ++k)
        a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double sum = b[i];
    for (std::size_t k = i + 1; k < n; ++k)
      sum -= a[i][k] * x[k];
    x[i] = sum / a[i][i];
    if (!std::isfinite(x[i]))
      return std::nullopt;
  }
  return x;
}

std::optional<std::vector<double>>
linear_least_squares(const std::vector<std::vector<double>>& columns, const std::vector<double>& y,
                     const std::vector<double>& weights) {
  const std::size_t m = columns.size();
  if (m == 0 || y.size() < m)
    return std::nullopt;
  // Columns are scaled to unit length first: x^2 and x differ by orders of magnitude, and the
  // normal equations square the condition number.
  std::vector<double> norm(m, 0);
  for (std::size_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double w = weights.empty() ? 1.0 : weights[i];
      norm[j] += w * columns[j][i] * columns[j][i];
    }
    norm[j] = std::sqrt(norm[j]);
    if (norm[j] == 0 || !std::isfinite(norm[j]))
      return std::nullopt;
  }
  std::vector<std::vector<double>> ata(m, std::vector<double>(m, 0));
  std::vector<double> aty(m, 0);
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double w = weights.empty() ? 1.0 : weights[i];
    for (std::size_t j = 0; j < m; ++j) {
      const double cj = columns[j][i] / norm[j];
      aty[j] += w * cj * y[i];
      for (std::size_t k = 0; k < m; ++k)
        ata[j][k] += w * cj * columns[k][i] / norm[k];
    }
  }
  auto solution = solve_linear_system(ata, aty);
  if (!solution)
    return std::nullopt;
  for (std::size_t j = 0; j < m; ++j)
    (*solution)[j] /= norm[j];
  return solution;
}

std::optional<NonnegativeFit>
nonnegative_least_squares(const std::vector<std::vector<double>>& columns,
                          const std::vector<double>& y, const std::vector<double>& weights) {
  const std::size_t m = columns.size();
  std::optional<NonnegativeFit> best;
  double best_residual = 0;
  // Every subset of columns, largest first; with m <= 3 that is at most 7 small solves.
  for (unsigned mask = (1u << m) - 1; mask > 0; --mask) {
    std::vector<std::vector<double>> subset;
    for (std::size_t j = 0; j < m; ++j) {
      if (mask & (1u << j))
        subset.push_back(columns[j]);
    }
    auto coef = linear_least_squares(subset, y, weights);
    if (!coef || std::any_of(coef->begin(), coef->end(), [](double c) { return c < 0; }))
      continue;
    NonnegativeFit fit{std::vector<double>(m, 0), std::vector<bool>(m, false)};
    for (std::size_t j = 0, used = 0; j < m; ++j) {
      if (mask & (1u << j))
        fit.coef[j] = (*coef)[used++];
    }
    double residual = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      double predicted = 0;
      for (std::size_t j = 0; j < m; ++j)
        predicted += fit.coef[j] * columns[j][i];
      residual += (weights.empty() ? 1.0 : weights[i]) * (y[i] - predicted) * (y[i] - predicted);
    }
    if (!best || residual < best_residual) {
      best = std::move(fit);
      best_residual = residual;
    }
  }
  if (best) {
    auto unconstrained = linear_least_squares(columns, y, weights);
    for (std::size_t j = 0; j < m; ++j) {
      best->held_at_zero[j] = unconstrained && (*unconstrained)[j] < 0;
    }
  }
  return best;
}

double r_squared(const std::vector<double>& observed, const std::vector<double>& fitted,
                 const std::vector<double>& weights) {
  if (observed.empty())
    return 0;
  auto weight = [&](std::size_t i) { return weights.empty() ? 1.0 : weights[i]; };
  double mean = 0, total_weight = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    mean += weight(i) * observed[i];
    total_weight += weight(i);
  }
  mean /= total_weight;
  double ss_res = 0, ss_tot = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    ss_res += weight(i) * (observed[i] - fitted[i]) * (observed[i] - fitted[i]);
    ss_tot += weight(i) * (observed[i] - mean) * (observed[i] - mean);
  }
  if (ss_tot == 0)
    return ss_res == 0 ? 1.0 : 0.0;
  return 1.0 - ss_res / ss_tot;
}

namespace {

struct Linearisation {
  std::vector<std::vector<double>> jtj;
  std::vector<double> jtr;
};

double sum_of_squares(const ModelFunction& model, const std::vector<double>& x,
                      const std::vector<double>& y, const std::vector<double>& params) {
  std::vector<double> gradient(params.size());
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - model(params, x[i], gradient);
    sum += r * r;
  }
  return sum;
}

Linearisation linearise(const ModelFunction& model, const std::vector<double>& x,
                        const std::vector<double>& y, const std::vector<double>& params) {
  const std::size_t m = params.size();
  Linearisation lin{std::vector<std::vector<double>>(m, std::vector<double>(m, 0)),
                    std::vector<double>(m, 0)};
  std::vector<double> g(m);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - model(params, x[i], g);
    for (std::size_t j = 0; j < m; ++j) {
      lin.jtr[j] += g[j] * r;
      for (std::size_t k = 0; k < m; ++k)
        lin.jtj[j][k] += g[j] * g[k];
    }
  }
  return lin;
}

// A parameter sits on a bound and the descent direction (J^T r) points out of the box.
std::vector<bool> held_at_bounds(const std::vector<double>& p, const std::vector<double>& jtr,
                                 const std::vector<double>& lower,
                                 const std::vector<double>& upper) {
  std::vector<bool> held(p.size(), false);
  for (std::size_t j = 0; j < p.size(); ++j) {
    held[j] = (p[j] <= lower[j] && jtr[j] <= 0) || (p[j] >= upper[j] && jtr[j] >= 0);
  }
  return held;
}

} // namespace

LevenbergMarquardtResult
levenberg_marquardt(const ModelFunction& model, const std::vector<double>& x,
                    const std::vector<double>& y, std::vector<double> start,
                    const std::vector<double>& lower, const std::vector<double>& upper,
                    const LevenbergMarquardtOptions& options) {
  const std::size_t m = start.size();
  LevenbergMarquardtResult result;
  for (std::size_t j = 0; j < m; ++j)
    start[j] = std::clamp(start[j], lower[j], upper[j]);
  result.params = std::move(start);
  result.sum_of_squares = sum_of_squares(model, x, y, result.params);
  result.at_bound.assign(m, false);
  double lambda = 1e-3;
  for (result.iterations = 0; result.iterations < options.max_iterations; ++result.iterations) {
    if (result.sum_of_squares == 0) {
      result.converged = true;
      break;
    }
    const Linearisation lin = linearise(model, x, y, result.params);
    result.at_bound = held_at_bounds(result.params, lin.jtr, lower, upper);
    std::vector<std::size_t> free;
    for (std::size_t j = 0; j < m; ++j) {
      if (!result.at_bound[j])
        free.push_back(j);
    }
    if (free.empty()) {
      result.converged = true;
      break;
    }
    double largest_diagonal = 0;
    for (std::size_t j : free)
      largest_diagonal = std::max(largest_diagonal, lin.jtj[j][j]);
    bool stepped = false;
    bool small_step = false;
    while (lambda < 1e20) {
      const std::size_t f = free.size();
      std::vector<std::vector<double>> a(f, std::vector<double>(f));
      std::vector<double> b(f);
      for (std::size_t r = 0; r < f; ++r) {
        for (std::size_t c = 0; c < f; ++c)
          a[r][c] = lin.jtj[free[r]][free[c]];
        // Marquardt's scaling by the diagonal keeps the step invariant to parameter units
        // (gamma ~ 100 next to beta ~ 1e-4).
        a[r][r] += lambda * std::max(lin.jtj[free[r]][free[r]], largest_diagonal * 1e-12);
        b[r] = lin.jtr[free[r]];
      }
      auto delta = solve_linear_system(a, b);
      if (!delta) {
        lambda *= 10;
        continue;
      }
      std::vector<double> candidate = result.params;
      double largest_relative_change = 0;
      for (std::size_t r = 0; r < f; ++r) {
        const std::size_t j = free[r];
        candidate[j] = std::clamp(candidate[j] + (*delta)[r], lower[j], upper[j]);
        const double change = std::abs(candidate[j] - result.params[j]);
        largest_relative_change = std::max(largest_relative_change,
                                           change / std::max(std::abs(result.params[j]), 1e-300));
      }
      const double candidate_sum = sum_of_squares(model, x, y, candidate);
      if (std::isfinite(candidate_sum) && candidate_sum < result.sum_of_squares) {
        small_step = result.sum_of_squares - candidate_sum <=
                         options.relative_tolerance * result.sum_of_squares ||
                     largest_relative_change <= options.relative_tolerance;
        result.params = std::move(candidate);
        result.sum_of_squares = candidate_sum;
        lambda = std::max(lambda / 10, 1e-12);
        stepped = true;
        break;
      }
      lambda *= 10;
    }
    // No step lowers the sum of squares even with a tiny trust region: a (bounded) minimum.
    if (!stepped || small_step) {
      result.converged = true;
      break;
    }
  }
  if (result.converged) {
    const Linearisation lin = linearise(model, x, y, result.params);
    result.at_bound = held_at_bounds(result.params, lin.jtr, lower, upper);
  }
  return result;
}

} // namespace cb
