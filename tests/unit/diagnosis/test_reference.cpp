#include <gtest/gtest.h>

#include <cmath>

#include "figures.hpp"

#include "diagnosis/reference.hpp"

using cb::testing::figure;

TEST(Reference, MediansAndTheNormalQuantile) {
  std::vector<double> v{5, 1, 3, 2};
  EXPECT_DOUBLE_EQ(cb::median_of(v), 3) << "the upper middle of an even count";
  std::vector<double> none;
  EXPECT_DOUBLE_EQ(cb::median_of(none), 0);
  EXPECT_NEAR(cb::upper_normal_quantile(0.025), 1.95996, 1e-4);
  EXPECT_NEAR(cb::upper_normal_quantile(1e-9), 5.99781, 1e-3);
}

// Three slow nodes of seven inside one leaf: the median figure is a slow one, the median over
// nodes of each node's median is not.
TEST(Reference, TheTypicalFigureInsideSurvivesSlowNodes) {
  std::vector<cb::Observation> obs;
  const std::vector<double> rate{100, 100, 100, 100, 30, 30, 30};
  int round = 0;
  for (int a = 0; a < 7; ++a)
    for (int b = 0; b < 7; ++b)
      if (a != b)
        obs.push_back(figure(a, b, round++, std::min(rate[a], rate[b])));
  const auto n = cb::normalise(obs, std::vector<int>(7, 0));
  EXPECT_NEAR(n.log_ratio[0], 0.0, 1e-6) << "0 -> 1 is a healthy figure";
  EXPECT_NEAR(std::exp(n.log_ratio[5]), 0.3, 1e-6) << "0 -> 6 is slow";
  EXPECT_DOUBLE_EQ(n.sigma, cb::kNoiseFloor) << "no noise: the floor";
}

// Crossing figures are judged per round against the median leaf's: an oversubscribed round is
// no evidence, a leaf slower than the others in it is.
TEST(Reference, CrossingFiguresAreJudgedPerRoundByTheMedianLeaf) {
  std::vector<cb::Observation> obs;
  // Six leaves of one node, each sending to the next; round 0 uncongested, round 1 at half rate,
  // leaf 2's uplink slow in both.
  for (int round = 0; round < 2; ++round) {
    const double level = round == 0 ? 100 : 50;
    for (int leaf = 0; leaf < 6; ++leaf) {
      const int to = (leaf + 1) % 6;
      const bool slow = leaf == 2 || to == 2;
      obs.push_back(figure(leaf, to, round, slow ? level * 0.4 : level));
    }
  }
  const auto n = cb::normalise(obs, {0, 1, 2, 3, 4, 5});
  for (std::size_t i = 0; i < obs.size(); ++i) {
    const bool slow = obs[i].src == 2 || obs[i].dst == 2;
    EXPECT_NEAR(std::exp(n.log_ratio[i]), slow ? 0.4 : 1.0, 1e-6) << i;
  }
}

TEST(Reference, WithFewLeavesCrossingFiguresAreJudgedAgainstTheInsideOnes) {
  // Two leaves {0, 1} and {2, 3}: inside 100, across 40 (a slow uplink, or an oversubscribed
  // fabric: with two leaves, nothing can tell).
  std::vector<cb::Observation> obs{figure(0, 1, 0, 100), figure(1, 0, 0, 100), figure(2, 3, 0, 100),
                                   figure(3, 2, 0, 100), figure(0, 2, 1, 40),  figure(2, 0, 1, 40)};
  const auto n = cb::normalise(obs, {0, 0, 1, 1});
  EXPECT_NEAR(std::exp(n.log_ratio[4]), 0.4, 1e-6);
}

TEST(Reference, TheNoiseIsReadFromTheFastSide) {
  std::vector<cb::Observation> obs;
  // Half the figures far slower: the fast side still says 2 %.
  for (int i = 0; i < 4000; ++i) {
    const double noise = 1 + 0.02 * std::sqrt(-2 * std::log((i + 0.5) / 4000.0)) *
                                 std::cos(2 * M_PI * ((i * 7919) % 4000) / 4000.0);
    obs.push_back(figure(i % 10, (i + 1) % 10, 0, 100 * noise));
  }
  for (int i = 0; i < 3000; ++i)
    obs.push_back(figure(10, 11, 0, 30));
  std::vector<int> leaves(12, 0);
  const auto n = cb::normalise(obs, leaves);
  EXPECT_NEAR(n.sigma, 0.02, 0.003);
}
