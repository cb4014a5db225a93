#pragma once
// Amdahl's law: S(N) = 1 / ((1 - p) + p / N), the USL with beta = 0 and alpha = 1 - p. The serial
// fraction 1 - p bounds the speedup at 1 / (1 - p) however many GPUs are added.
#include <optional>
#include <string>
#include <vector>

namespace cb {

double amdahl_speedup(double serial_fraction, double n);

struct AmdahlFit {
  bool ok = false;
  double serial_fraction = 0;        // 1 - p, in [0, 1]
  std::optional<double> max_speedup; // 1 / serial_fraction; absent when it is 0
  double r2 = 0;                     // of the speedup
  int points = 0;
  std::vector<std::string> warnings;
};

// Least squares of S(N) against measured speedups S = X(N) / X(1) (p bounded to [0, 1]).
AmdahlFit fit_amdahl(const std::vector<double>& n, const std::vector<double>& speedup);

} // namespace cb
