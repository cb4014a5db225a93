#pragma once
// Gunther's Universal Scalability Law: X(N) = gamma N / (1 + alpha (N-1) + beta N (N-1)), with
// alpha the contention (serial) share, beta the coherency (crosstalk) cost and gamma the one-unit
// throughput. Throughput peaks at N* = sqrt((1 - alpha) / beta).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cb {

enum class UslMethod {
  nls,        // bounded non-linear least squares on X: alpha, beta in [0, 1], gamma >= 0
  linearised, // Gunther's transform: y = N/C - 1 = beta x^2 + (alpha + beta) x, x = N - 1
};

std::string_view usl_method_name(UslMethod method);
// "nls" or "linearised"; InputError naming `flag` otherwise.
UslMethod usl_method_from_name(std::string_view name, std::string_view flag);

double usl_throughput(double alpha, double beta, double gamma, double n);

struct UslFit {
  UslMethod method = UslMethod::nls;
  bool ok = false; // alpha, beta, gamma and r2 are numbers that describe the data
  double alpha = 0, beta = 0, gamma = 0;
  std::optional<double> n_peak;          // absent when there is no peak (beta = 0, alpha >= 1)
  std::optional<double> peak_throughput; // X(N*)
  double r2 = 0;                         // of X, for either method
  int points = 0;
  std::vector<std::string> warnings; // why numbers are missing or doubtful

  double throughput(double n) const { return usl_throughput(alpha, beta, gamma, n); }
};

// Fits the USL to throughput x at concurrency n (both positive). The linearised method needs
// X(1): `x1` when given, else the point with n == 1. nls starts from the linearised fit.
UslFit fit_usl(const std::vector<double>& n, const std::vector<double>& x, UslMethod method,
               std::optional<double> x1 = std::nullopt);

} // namespace cb
