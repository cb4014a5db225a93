// The warnings every scaling law carries when its points cannot support it.
#include <gtest/gtest.h>

#include "analysis/fit_warnings.hpp"

using namespace cb;

TEST(FitWarnings, DistinctCountsLeaveOutOneWhenAsked) {
  EXPECT_EQ(distinct_counts({1, 2, 2, 4}), 3);
  EXPECT_EQ(distinct_counts({1, 1, 1}), 1);
  EXPECT_EQ(distinct_counts({1, 2, 4}, true), 2);
  EXPECT_EQ(distinct_counts({}), 0);
}

TEST(FitWarnings, ExactFitNeedsOneCountMoreThanParameters) {
  EXPECT_FALSE(exact_fit_warning(4, 3, "alpha, beta, gamma"));
  const auto w = exact_fit_warning(3, 3, "alpha, beta, gamma");
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, "3 informative GPU counts for 3 parameters (alpha, beta, gamma): none is left over "
                "to test the law, so its R² says little about it; measure at 4 or more GPU "
                "counts");
  EXPECT_NE(exact_fit_warning(1, 1, "p")->find("1 informative GPU count for"), std::string::npos);
}

TEST(FitWarnings, NegativeR2) {
  EXPECT_FALSE(negative_r2_warning(0));
  EXPECT_FALSE(negative_r2_warning(0.5));
  const auto w = negative_r2_warning(-0.44);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->rfind("R² = -0.44 < 0: the law describes these points worse than their mean", 0),
            0u);
}

TEST(FitWarnings, ExactMeansRoundingLevelResiduals) {
  EXPECT_TRUE(fits_exactly({10, 20, 40}, {10, 20, 40}));
  EXPECT_TRUE(fits_exactly({10, 20, 40}, {10, 20, 40 * (1 + 1e-9)}));
  EXPECT_FALSE(fits_exactly({10, 20, 40}, {10, 20, 40.4})); // 1 % off at one point
}

TEST(FitWarnings, HeldAtBoundNamesEveryParameter) {
  EXPECT_EQ(held_at_bound_warning({"alpha"}, "lower", 0, "why"),
            "alpha held at its lower bound 0: why");
  EXPECT_EQ(held_at_bound_warning({"alpha", "beta"}, "upper", 1, "why"),
            "alpha and beta held at their upper bound 1: why");
  EXPECT_EQ(held_at_bound_warning({"a", "b", "c"}, "lower", 0, "why"),
            "a, b and c held at their lower bound 0: why");
}

TEST(FitWarnings, LawsNotFittedAreOneLineCountedByReason) {
  std::vector<CurveLawNote> notes;
  const std::string too_few = "needs at least 3 different GPU counts, have 2 among 2 points";
  for (int c = 0; c < 48; ++c) {
    notes.push_back({"curve " + std::to_string(c), "USL", false, 2, too_few});
    notes.push_back({"curve " + std::to_string(c), "Amdahl", false, 2, too_few});
  }
  EXPECT_EQ(summarize_fit_notes(notes),
            std::vector<std::string>{"USL/Amdahl not fitted for 48 curves: 2 GPU counts, need 3"});

  // Two reasons: still one line, each reason with its laws and curves.
  notes.push_back({"curve x", "USL", false, 1, "needs at least 3 points to fit ..., have 1"});
  notes.push_back({"curve y", "USL", false, 4, "the fit gave non-finite parameters"});
  const auto lines = summarize_fit_notes(notes);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "USL/Amdahl not fitted for 50 curves: 2 GPU counts, need 3 (48 curves); "
                      "1 GPU count, need 3 (USL, 1 curve); the fit gave non-finite parameters "
                      "(USL, 1 curve)");
  EXPECT_TRUE(summarize_fit_notes({}).empty());
}

TEST(FitWarnings, CaveatsOfFittedLawsNameOneCurveAndCountMany) {
  const std::string exact = "3 informative GPU counts for 3 parameters (...)";
  std::vector<CurveLawNote> notes = {
      {"compute/copy bytes=64M", "USL", true, 3, "alpha and beta held at their lower bound 0"},
      {"a", "USL", true, 3, exact},
      {"b", "USL", true, 3, exact},
      {"c", "Amdahl", true, 3, exact},
      {"d", "USL", true, 3, ""}, // a fit without caveats says nothing
      {"e", "Amdahl", false, 2, "needs at least 3 different GPU counts, have 2 among 2 points"},
  };
  EXPECT_EQ(summarize_fit_notes(notes),
            (std::vector<std::string>{
                "compute/copy bytes=64M: USL: alpha and beta held at their lower bound 0",
                "USL: " + exact + " (2 curves)", "c: Amdahl: " + exact,
                "Amdahl not fitted for 1 curve: 2 GPU counts, need 3"}));
}
