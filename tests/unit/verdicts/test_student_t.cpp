#include <gtest/gtest.h>

#include <stdexcept>

#include "verdicts/student_t.hpp"

using namespace cb;

// Reference values: scipy.stats.t.cdf / t.ppf (and the printed tables they reproduce).
TEST(StudentT, CdfMatchesTheTables) {
  EXPECT_NEAR(student_t_cdf(0.0, 5), 0.5, 1e-14);
  EXPECT_NEAR(student_t_cdf(2.0, 10), 0.963305982614, 1e-10);
  EXPECT_NEAR(student_t_cdf(-2.0, 10), 0.036694017386, 1e-10);
  EXPECT_NEAR(student_t_cdf(1.0, 1), 0.75, 1e-12);       // Cauchy: 1/2 + atan(1)/pi
  EXPECT_NEAR(student_t_cdf(3.5, 2.5), 0.973827, 1e-5);  // fractional df, as Welch's
  EXPECT_NEAR(student_t_cdf(1.96, 1e6), 0.975002, 1e-5); // the normal limit
  EXPECT_EQ(student_t_cdf(1.0 / 0.0, 3), 1.0);
}

TEST(StudentT, QuantilesMatchTheTables) {
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.776445105, 1e-7);
  EXPECT_NEAR(student_t_quantile(0.995, 1), 63.65674116, 1e-5);
  EXPECT_NEAR(student_t_quantile(0.995, 9), 3.249835541, 1e-7);
  EXPECT_NEAR(student_t_quantile(0.8, 4), 0.940964577, 1e-7);
  EXPECT_NEAR(student_t_quantile(0.025, 4), -2.776445105, 1e-7);
  EXPECT_EQ(student_t_quantile(0.5, 7), 0.0);
  for (double p : {0.6, 0.9, 0.99, 0.9999}) {
    EXPECT_NEAR(student_t_cdf(student_t_quantile(p, 3.3), 3.3), p, 1e-10) << p;
  }
}

TEST(StudentT, OutOfRangeArgumentsThrow) {
  EXPECT_THROW(student_t_cdf(1, 0), std::invalid_argument);
  EXPECT_THROW(student_t_quantile(1, 3), std::invalid_argument);
  EXPECT_THROW(student_t_quantile(0, 3), std::invalid_argument);
  EXPECT_THROW(regularized_incomplete_beta(1.5, 1, 1), std::invalid_argument);
  EXPECT_NEAR(regularized_incomplete_beta(0.3, 1, 1), 0.3, 1e-14); // uniform
}
