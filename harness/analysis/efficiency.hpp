#pragma once
// Scaling efficiency (docs/REFERENCE.md, "Scaling efficiency"):
//   aggregate throughputs  E(N) = X(N) / (N * X(1))
//   collectives            E(N) = busbw(N) / busbw(2)   at a fixed message size
// Both are written as E(N) = X(N) / (N * X1): for collectives the aggregate is N * busbw(N) and
// the one-GPU reference X1 is busbw(2), because bus bandwidth is already normalised per GPU and is
// zero on one GPU. The same (N, X, X1) series is what the scaling laws are fitted to.
#include <optional>
#include <string>
#include <vector>

#include "analysis/curves.hpp"

namespace cb {

struct ScalingSeries {
  std::vector<double> n; // GPU counts with a usable figure
  std::vector<double> x; // aggregate throughput at each of them
  double x1 = 0;         // the one-GPU reference: speedup S(N) = x / x1 = N * E(N)
  int base_gpus = 0;     // the GPU count X1 comes from (1 for aggregates, 2 for collectives)
  std::vector<std::string> warnings;
};

// nullopt for curves that are not efficiency curves (latency) or have no usable point.
std::optional<ScalingSeries> scaling_series(const Curve& curve);

struct Efficiency {
  std::vector<std::optional<double>> value; // one per curve point; empty where undefined
  int base_gpus = 0;
  std::vector<std::string> warnings;
};

Efficiency efficiency(const Curve& curve);

} // namespace cb
