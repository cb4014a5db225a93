#pragma once
// Every model fitted to one results file: per curve the efficiency, the USL (both methods) and
// Amdahl; per collective and GPU count the Hockney alpha-beta line; the ring all-reduce model per
// tier. This is what `fit` stores in the results' fits section and what reports read.
#include <optional>
#include <vector>

#include "analysis/alpha_beta.hpp"
#include "analysis/amdahl.hpp"
#include "analysis/curves.hpp"
#include "analysis/efficiency.hpp"
#include "analysis/usl.hpp"

namespace cb {

struct CurveFits {
  Curve curve;
  Efficiency efficiency;
  // Absent for curves that are not throughputs (latency); present with warnings when the curve
  // has too few GPU counts.
  std::optional<UslFit> usl; // nls
  std::optional<UslFit> usl_linearised;
  std::optional<AmdahlFit> amdahl;

  // The USL or Amdahl produced numbers.
  bool fitted() const { return (usl && usl->ok) || (amdahl && amdahl->ok); }
};

struct ScalingAnalysis {
  std::vector<CurveFits> curves;
  std::vector<HockneyFit> hockney;
  std::vector<RingAllReduceFit> ring_all_reduce;

  // Something was fitted: a scaling law on a curve or an alpha-beta line.
  bool has_fits() const;
};

CurveFits fit_curve(Curve curve);
ScalingAnalysis analyse_scaling(const ResultsFile& results);

} // namespace cb
