#pragma once
// The Mann–Whitney U test (Wilcoxon rank-sum): do two sets of timing samples come from the same
// distribution? It needs no normality, which timing samples (skewed, with outliers) rarely have.
#include <vector>

namespace cb {

enum class PValueMethod { exact, asymptotic };

struct MannWhitneyResult {
  double u = 0;       // U of the first sample: pairs (a, b) with a > b, ties counted 1/2
  double p_value = 1; // two-sided
  PValueMethod method = PValueMethod::asymptotic;
};

// Two-sided test, the same choice of method and the same figures as scipy.stats.mannwhitneyu with
// method="auto" (scipy 1.7 and later):
//  - exact null distribution of U when there are no ties and one side has at most 8 values (the
//    exact distribution is computed by counting, so the other side is bounded at
//    kMannWhitneyExactLimit values to keep that cheap);
//  - otherwise the normal approximation with tie correction and continuity correction.
// Throws std::invalid_argument when either side is empty.
MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

inline constexpr std::size_t kMannWhitneyExactSmallSide = 8;
inline constexpr std::size_t kMannWhitneyExactLimit = 2000;

// P(U >= u) under the null hypothesis for samples of sizes m and n without ties.
double mann_whitney_exact_sf(double u, std::size_t m, std::size_t n);

// The smallest two-sided p-value the exact test can give for samples of sizes m and n:
// 2 / C(m + n, m). With fewer samples than that allows, no difference can ever be significant.
double mann_whitney_smallest_p(std::size_t m, std::size_t n);

const char* to_string(PValueMethod method);

} // namespace cb
