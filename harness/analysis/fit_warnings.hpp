#pragma once
// Why a fitted law may not describe its points, in the same words for every scaling law: too few
// different GPU counts for its parameters, R² below 0, a parameter the bounds hold where the points
// do not want it. The fits keep their numbers and carry these as warnings, which `fit` stores and
// `report` prints beside the curve.
#include <optional>
#include <string>
#include <vector>

namespace cb {

// Different values in `n`, leaving out n = 1 when `skip_one` (a law that passes through S(1) = 1
// whatever its parameters learns nothing from that point).
int distinct_counts(const std::vector<double>& n, bool skip_one = false);

// With no more informative GPU counts than parameters no point is left over to test the law: it
// passes through every point where its bounds let it, and R² says little about whether it is the
// right law.
std::optional<std::string> exact_fit_warning(int counts, int parameters,
                                             const std::string& parameter_names);

// R² < 0: the law describes the points worse than their mean does.
std::optional<std::string> negative_r2_warning(double r2);

// The residuals are at rounding level: the law passes through the points (no bound is then
// "pushed" by the data, whatever the gradient's sign).
bool fits_exactly(const std::vector<double>& observed, const std::vector<double>& fitted);

// "alpha and beta held at their lower bound 0: <why>".
std::string held_at_bound_warning(const std::vector<std::string>& names, const std::string& side,
                                  double bound, const std::string& why);

// The fewest different GPU counts (and points) the USL and Amdahl are fitted to.
inline constexpr int kMinimumFitCounts = 3;

// The warning of a fit refused for too few points or GPU counts ("needs at least ...").
bool is_too_few_counts(const std::string& warning);

// What one scaling law says of one curve: no fit (and why), or a caveat on the fit it made.
struct CurveLawNote {
  std::string curve;   // "collectives/all_reduce bytes=64M dtype=float op=sum out-of-place"
  std::string law;     // "USL", "Amdahl"
  bool fitted = false; // false: no numbers; `warning` is why
  int counts = 0;      // different GPU counts of the curve
  std::string warning;
};

// The notes of many curves in a few lines, so that a run with too few GPU counts does not print
// one per curve: one line per caveat of a fitted law, naming the curve when one curve has it
// ("compute/copy bytes=64M: USL: ...") and counting them when several do ("USL: ... (12
// curves)"); last, one line for every law not fitted, its curves counted by reason ("USL/Amdahl
// not fitted for 48 curves: 2 GPU counts, need 3"). Empty when there is nothing to say.
std::vector<std::string> summarize_fit_notes(const std::vector<CurveLawNote>& notes);

} // namespace cb
