#include "verdicts/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace cb {
namespace {

struct RankSums {
  double rank_sum_a = 0;
  double tie_term = 0; // sum over groups of tied values of t^3 - t
  bool has_ties = false;
};

// Mid-ranks of the pooled samples (ties share the mean of their ranks), summed over sample a.
RankSums rank_sums(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::pair<double, bool>> pooled; // value, belongs to a
  pooled.reserve(a.size() + b.size());
  for (double v : a)
    pooled.emplace_back(v, true);
  for (double v : b)
    pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  RankSums sums;
  std::size_t i = 0;
  while (i < pooled.size()) {
    std::size_t j = i;
    while (j + 1 < pooled.size() && pooled[j + 1].first == pooled[i].first)
      ++j;
    const double tied = static_cast<double>(j - i + 1);
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2.0;
    for (std::size_t k = i; k <= j; ++k) {
      if (pooled[k].second)
        sums.rank_sum_a += mid_rank;
    }
    if (tied > 1) {
      sums.has_ties = true;
      sums.tie_term += tied * tied * tied - tied;
    }
    i = j + 1;
  }
  return sums;
}

// Number of arrangements of m a's and n b's for each value of U, by the recurrence
// N(m, n, u) = N(m - 1, n, u - n) + N(m, n - 1, u) (the last value is an a, which beats all n b's,
// or a b). Counts stay exact in a double up to 2^53 and accurate far beyond; only ratios are used.
std::vector<double> exact_u_counts(std::size_t m, std::size_t n) {
  if (m > n)
    std::swap(m, n); // the distribution of U is the same with the sizes swapped
  const std::size_t max_u = m * n;
  // layer[i][u] = N(i, j, u) for the current j.
  std::vector<std::vector<double>> layer(m + 1, std::vector<double>(max_u + 1, 0.0));
  for (std::size_t i = 0; i <= m; ++i)
    layer[i][0] = 1.0; // j = 0: only U = 0
  for (std::size_t j = 1; j <= n; ++j) {
    // N(0, j, 0) = 1 stays; go up in i so layer[i - 1] already holds N(i - 1, j, .).
    for (std::size_t i = 1; i <= m; ++i) {
      std::vector<double>& row = layer[i];
      const std::vector<double>& shorter = layer[i - 1];
      // U of i a's against j b's is at most i * j; row[u] held N(i, j - 1, u).
      for (std::size_t u = j; u <= i * j; ++u)
        row[u] += shorter[u - j];
    }
  }
  return layer[m];
}

double normal_sf(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

} // namespace

double mann_whitney_exact_sf(double u, std::size_t m, std::size_t n) {
  const std::vector<double> counts = exact_u_counts(m, n);
  double total = 0, tail = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (static_cast<double>(k) >= u)
      tail += counts[k];
  }
  return tail / total;
}

double mann_whitney_smallest_p(std::size_t m, std::size_t n) {
  // 2 / C(m + n, m); the running product stays an integer at every step, so it is exact as long
  // as it fits in a double's mantissa and within rounding beyond.
  const std::size_t k = std::min(m, n);
  double choose = 1.0;
  for (std::size_t i = 1; i <= k; ++i) {
    choose = choose * static_cast<double>(m + n - k + i) / static_cast<double>(i);
  }
  return std::min(1.0, 2.0 / choose);
}

MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty())
    throw std::invalid_argument("Mann-Whitney U test of an empty sample");
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  const RankSums sums = rank_sums(a, b);
  MannWhitneyResult result;
  result.u = sums.rank_sum_a - n1 * (n1 + 1) / 2.0;
  // The two-sided p-value doubles the upper tail of the larger of U1 and U2 = n1 n2 - U1.
  const double u_larger = std::max(result.u, n1 * n2 - result.u);

  const bool small_side = std::min(a.size(), b.size()) <= kMannWhitneyExactSmallSide;
  const bool bounded = std::max(a.size(), b.size()) <= kMannWhitneyExactLimit;
  if (small_side && bounded && !sums.has_ties) {
    result.method = PValueMethod::exact;
    result.p_value = std::min(1.0, 2.0 * mann_whitney_exact_sf(u_larger, a.size(), b.size()));
    return result;
  }

  result.method = PValueMethod::asymptotic;
  const double n = n1 + n2;
  const double mean_u = n1 * n2 / 2.0;
  const double variance = n1 * n2 / 12.0 * ((n + 1) - sums.tie_term / (n * (n - 1)));
  if (variance <= 0) { // every value equal: no evidence of any difference
    result.p_value = 1.0;
    return result;
  }
  const double z = (u_larger - mean_u - 0.5) / std::sqrt(variance); // 0.5: continuity correction
  result.p_value = std::clamp(2.0 * normal_sf(z), 0.0, 1.0);
  return result;
}

const char* to_string(PValueMethod method) {
  return method == PValueMethod::exact ? "exact" : "asymptotic";
}

} // namespace cb
