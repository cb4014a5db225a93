// Reference p-values from scipy.stats.mannwhitneyu(a, b, alternative="two-sided") (scipy 1.10,
// method "auto"), which chooses exact / asymptotic the same way.
#include <gtest/gtest.h>

#include <stdexcept>

#include "verdicts/mann_whitney.hpp"

using namespace cb;

namespace {

struct Reference {
  const char* name;
  std::vector<double> a, b;
  double u, p;
  PValueMethod method;
};

std::vector<double> range(double first, int count, double shift = 0) {
  std::vector<double> v;
  for (int i = 0; i < count; ++i)
    v.push_back(first + i + shift);
  return v;
}

} // namespace

TEST(MannWhitney, MatchesScipyReferenceValues) {
  const std::vector<Reference> references = {
      {"disjoint 3/3", {1, 2, 3}, {4, 5, 6}, 0.0, 0.1, PValueMethod::exact},
      {"textbook 5/4",
       {19, 22, 16, 29, 24},
       {20, 11, 17, 12},
       17.0,
       0.1111111111111111,
       PValueMethod::exact},
      {"interleaved 5/6",
       {1.1, 2.3, 3.5, 4.2, 5.9},
       {1.5, 2.1, 3.9, 4.8, 5.1, 6.2},
       12.0,
       0.6623376623376623,
       PValueMethod::exact},
      {"ties 4/4", {1, 2, 2, 3}, {2, 3, 4, 4}, 2.5, 0.13416918012812584, PValueMethod::asymptotic},
      {"20/20 shifted", range(1, 20), range(1, 20, 5.5), 105.0, 0.010581211443165648,
       PValueMethod::asymptotic},
      {"ties 10/10",
       {1, 1, 2, 2, 2, 3, 3, 4, 5, 5},
       {2, 3, 3, 4, 4, 4, 5, 6, 6, 7},
       23.0,
       0.042266566864726005,
       PValueMethod::asymptotic},
      {"small against large 3/30",
       {0.5, 3.2, 7.7},
       range(1, 30),
       10.0,
       0.024560117302052785,
       PValueMethod::exact},
      {"one each", {1.0}, {2.0}, 0.0, 1.0, PValueMethod::exact},
      {"9/9 no ties",
       {1, 3, 5, 7, 9, 11, 13, 15, 17},
       {2, 4, 6, 8, 10, 12, 14, 16, 18.5},
       36.0,
       0.7239320396139757,
       PValueMethod::asymptotic},
  };
  for (const auto& r : references) {
    const MannWhitneyResult result = mann_whitney_u(r.a, r.b);
    EXPECT_DOUBLE_EQ(result.u, r.u) << r.name;
    EXPECT_NEAR(result.p_value, r.p, 1e-12) << r.name;
    EXPECT_EQ(result.method, r.method) << r.name;
  }
}

TEST(MannWhitney, SwappingTheSamplesKeepsThePValueAndMirrorsU) {
  const std::vector<double> a = {19, 22, 16, 29, 24}, b = {20, 11, 17, 12};
  const auto ab = mann_whitney_u(a, b);
  const auto ba = mann_whitney_u(b, a);
  EXPECT_DOUBLE_EQ(ab.p_value, ba.p_value);
  EXPECT_DOUBLE_EQ(ab.u + ba.u, 20.0); // U1 + U2 = n1 n2
}

TEST(MannWhitney, ExactTailCountsArrangements) {
  // m = n = 3: C(6, 3) = 20 arrangements; U = 9 only when every a beats every b.
  EXPECT_DOUBLE_EQ(mann_whitney_exact_sf(9, 3, 3), 1.0 / 20.0);
  EXPECT_DOUBLE_EQ(mann_whitney_exact_sf(0, 3, 3), 1.0);
  // U >= 8: U = 9 (1 way) or U = 8 (1 way).
  EXPECT_DOUBLE_EQ(mann_whitney_exact_sf(8, 3, 3), 2.0 / 20.0);
  // m = 1, n = 4: U is uniform on 0..4.
  EXPECT_DOUBLE_EQ(mann_whitney_exact_sf(3, 1, 4), 2.0 / 5.0);
  EXPECT_DOUBLE_EQ(mann_whitney_exact_sf(3, 4, 1), 2.0 / 5.0);
}

TEST(MannWhitney, SmallestPossiblePValue) {
  EXPECT_DOUBLE_EQ(mann_whitney_smallest_p(3, 3), 0.1);
  EXPECT_NEAR(mann_whitney_smallest_p(5, 5), 2.0 / 252.0, 1e-15);
  EXPECT_DOUBLE_EQ(mann_whitney_smallest_p(1, 1), 1.0);
  // Disjoint samples reach exactly that floor.
  EXPECT_NEAR(mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}).p_value, 2.0 / 252.0, 1e-15);
}

TEST(MannWhitney, IdenticalValuesGiveNoEvidence) {
  const auto result = mann_whitney_u({2, 2, 2, 2, 2, 2}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2});
  EXPECT_DOUBLE_EQ(result.p_value, 1.0);
  EXPECT_EQ(result.method, PValueMethod::asymptotic);
}

TEST(MannWhitney, LargeDisjointSamplesAreHighlySignificant) {
  const auto result = mann_whitney_u(range(0, 200), range(1000, 200));
  EXPECT_LT(result.p_value, 1e-60);
  EXPECT_DOUBLE_EQ(result.u, 0.0);
}

TEST(MannWhitney, ExactPathStaysCheapForAWideSmallSide) {
  // One side of 8, the other of 2000: exact counting, and p equals the two-sided floor.
  const auto result = mann_whitney_u(range(10000, 8), range(0, 2000));
  EXPECT_EQ(result.method, PValueMethod::exact);
  EXPECT_NEAR(result.p_value / mann_whitney_smallest_p(8, 2000), 1.0, 1e-9);
}

TEST(MannWhitney, EmptySampleIsRejected) {
  EXPECT_THROW(mann_whitney_u({}, {1.0}), std::invalid_argument);
  EXPECT_THROW(mann_whitney_u({1.0}, {}), std::invalid_argument);
}
