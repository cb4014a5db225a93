#include <gtest/gtest.h>

#include <cmath>

#include "figures.hpp"

#include "diagnosis/diagnosis.hpp"
#include "diagnosis/fabric_model.hpp"
#include "diagnosis/schedules.hpp"

using cb::testing::figure;

namespace {

cb::Scenario cluster(int nodes, int gpus, int leaf_nodes, double noise, std::uint64_t seed) {
  cb::Scenario s;
  s.nodes = nodes;
  s.gpus_per_node = gpus;
  s.leaf_nodes = leaf_nodes;
  s.noise = noise;
  s.seed = seed;
  return s;
}

cb::PlantedFault slow_node(int host, double factor) {
  cb::PlantedFault f;
  f.kind = cb::FaultKind::node;
  f.host = host;
  f.factor = factor;
  return f;
}

cb::Diagnosis screen_and_diagnose(const cb::Scenario& s) {
  cb::FabricModel fabric(s);
  std::vector<int> leaf;
  for (int h = 0; h < s.nodes; ++h)
    leaf.push_back(h / s.leaf_nodes);
  const cb::Measurements m = cb::run_screen(fabric, leaf, {});
  return cb::diagnose(m.observations, s.nodes, s.gpus_per_node, leaf, {});
}

} // namespace

// Six nodes in one ring, one of them at a third of the rate: a ring hop is evidence against its
// sender and its receiver alike, so the slow node's successor, whose received figure is slow
// too, is explained by the slow node and not named.
TEST(Diagnosis, NamesTheSlowSenderNotItsRingSuccessor) {
  cb::Scenario s = cluster(6, 1, 6, 0.02, 5);
  s.faults = {slow_node(3, 1.0 / 3)};
  const cb::Diagnosis d = screen_and_diagnose(s);
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].kind, cb::ComponentKind::node);
  EXPECT_EQ(d.culprits[0].host, 3);
  EXPECT_NEAR(d.culprits[0].factor, 1.0 / 3, 0.03);
  EXPECT_FALSE(d.culprits[0].evidence.empty());
}

// Two nodes alone in their leaf, slow only with each other: the figures cannot tell which one
// is slow, so neither is named (the higher index once was) and a note names both.
TEST(Diagnosis, AnUndecidablePairIsANoteNotACulprit) {
  std::vector<int> leaf{0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
  std::vector<cb::Observation> obs;
  for (int round = 0; round < 6; ++round) {
    obs.push_back(figure(0, 1, round, 0.5));
    obs.push_back(figure(1, 0, round, 0.5 * (round % 2 ? 1.01 : 0.99)));
    for (int a = 2; a < 10; ++a) {
      const int b = 2 + (a - 2 + 1 + round) % 8;
      if (b != a)
        obs.push_back(figure(a, b, round, (a + round) % 2 ? 1.01 : 0.99));
    }
  }
  const cb::Diagnosis d = cb::diagnose(obs, 10, 1, leaf, {});
  EXPECT_TRUE(d.culprits.empty()) << d.culprits.size() << " named, the first host "
                                  << (d.culprits.empty() ? -1 : d.culprits[0].host);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("hosts 0 and 1 are slow on 12 figures"), std::string::npos)
      << d.notes[0];
}

TEST(Diagnosis, AHealthyFleetNamesNobody) {
  const cb::Diagnosis d = screen_and_diagnose(cluster(6, 1, 6, 0.0, 1));
  EXPECT_TRUE(d.culprits.empty());
  EXPECT_TRUE(d.notes.empty());
}

// Six nearly equal figures and one at 0.90 x from a single sample: inside the tolerance, and one
// figure is no evidence (its robust z against a spread of nearly nothing would be -6).
TEST(Diagnosis, OneFigureInsideTheToleranceConvictsNothing) {
  std::vector<cb::Observation> obs;
  int round = 0;
  for (int a = 0; a < 6; ++a)
    obs.push_back(figure(a, (a + 1) % 6, round++, a == 3 ? 90.0 : 100.0 + 0.01 * a));
  const cb::Diagnosis d = cb::diagnose(obs, 6, 1, std::vector<int>(6, 0), {});
  EXPECT_TRUE(d.culprits.empty());
  std::vector<cb::Observation> once{figure(0, 1, 0, 100), figure(1, 2, 1, 100),
                                    figure(2, 0, 2, 10)};
  EXPECT_TRUE(cb::diagnose(once, 3, 1, std::vector<int>(3, 0), {}).culprits.empty())
      << "a node with fewer than three figures is never named";
}

// 5 % noise over 1,024 nodes of 8 GPUs: about 100,000 figures and 9,000 components, none named.
TEST(Diagnosis, NoiseOverAThousandNodesNamesNobody) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const cb::Diagnosis d = screen_and_diagnose(cluster(1024, 8, 32, 0.05, seed));
    EXPECT_TRUE(d.culprits.empty()) << "seed " << seed << ": " << d.culprits.size()
                                    << " named, the first host " << d.culprits[0].host;
    EXPECT_NEAR(d.sigma, 0.05, 0.005);
  }
}

TEST(Diagnosis, ASlowRailIsARailNotItsNode) {
  cb::Scenario s = cluster(64, 8, 16, 0.05, 9);
  cb::PlantedFault rail;
  rail.kind = cb::FaultKind::rail;
  rail.host = 17;
  rail.gpu = 5;
  rail.factor = 0.6;
  s.faults = {rail};
  const cb::Diagnosis d = screen_and_diagnose(s);
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].kind, cb::ComponentKind::rail);
  EXPECT_EQ(d.culprits[0].host, 17);
  EXPECT_EQ(d.culprits[0].gpu, 5);
}

// The nodes of a leaf slow with every partner outside it and fast with one another are behind a
// slow uplink; a slow node inside that leaf is slow inside too and is named as well.
TEST(Diagnosis, ASlowUplinkIsNamedNotItsNodesAndASlowNodeBehindItIsNamedToo) {
  cb::Scenario s = cluster(128, 4, 16, 0.03, 21);
  cb::PlantedFault uplink;
  uplink.kind = cb::FaultKind::uplink;
  uplink.leaf = 3;
  uplink.factor = 0.5;
  s.faults = {uplink};
  cb::Diagnosis d = screen_and_diagnose(s);
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].kind, cb::ComponentKind::uplink);
  EXPECT_EQ(d.culprits[0].leaf, 3);
  EXPECT_NEAR(d.culprits[0].factor, 0.5, 0.05);

  s.faults.push_back(slow_node(50, 0.3));
  d = screen_and_diagnose(s);
  ASSERT_EQ(d.culprits.size(), 2u);
  EXPECT_EQ(d.culprits[0].kind, cb::ComponentKind::uplink);
  EXPECT_EQ(d.culprits[1].kind, cb::ComponentKind::node);
  EXPECT_EQ(d.culprits[1].host, 50);
}

// Two switches (5 and 3 nodes, one rank each) with a slow uplink and a topology: the uplink is
// named, and with a slow node inside the small switch as well, both.
TEST(Diagnosis, TwoSwitchesNameTheSmallLeafsUplink) {
  cb::Scenario s = cluster(8, 1, 5, 0.02, 3);
  cb::PlantedFault uplink;
  uplink.kind = cb::FaultKind::uplink;
  uplink.leaf = 1;
  uplink.factor = 0.4;
  s.faults = {uplink};
  cb::Diagnosis d = screen_and_diagnose(s);
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].kind, cb::ComponentKind::uplink);
  EXPECT_EQ(d.culprits[0].leaf, 1);
  s.faults.push_back(slow_node(6, 0.3));
  d = screen_and_diagnose(s);
  ASSERT_EQ(d.culprits.size(), 2u);
  EXPECT_EQ(d.culprits[1].kind, cb::ComponentKind::node);
  EXPECT_EQ(d.culprits[1].host, 6);
}

// A bad cable between two healthy nodes: slow in both directions of that one pair only. No node,
// rail or uplink explains it, and a note says so instead of a guess.
TEST(Diagnosis, APatternNoComponentExplainsIsANote) {
  std::vector<cb::Observation> obs;
  int round = 0;
  for (int shift = 1; shift <= 4; ++shift) {
    for (int a = 0; a < 12; ++a) {
      const int b = (a + shift) % 12;
      for (int rail = 0; rail < 8; ++rail) {
        const bool cable = (a == 2 && b == 3) || (a == 3 && b == 2);
        obs.push_back(figure(a, b, round, cable ? 40.0 : 100.0 + (a * 13 + rail * 7) % 5, rail));
      }
    }
    ++round;
  }
  for (int repeat = 0; repeat < 3; ++repeat)
    for (int rail = 0; rail < 8; ++rail)
      obs.push_back(figure(2, 3, round + repeat, 40.0, rail));
  const cb::Diagnosis d = cb::diagnose(obs, 12, 8, std::vector<int>(12, 0), {});
  EXPECT_TRUE(d.culprits.empty()) << d.culprits.size() << " named";
  // Node 2's egress and node 3's ingress are slow on the same figures alone: the undecidable
  // pair's note (either node, or the link between them), not a guess.
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("hosts 2 and 3"), std::string::npos) << d.notes[0];
  EXPECT_NE(d.notes[0].find("nothing is named"), std::string::npos) << d.notes[0];
}

// Node 3's egress at a third of the rate, its ingress healthy: half its figures are slow, which
// its median over both cannot show; its egress alone names it, and the receivers of its slow
// figures are not named.
TEST(Diagnosis, ASlowEgressAloneIsNamedAsTheNodesEgress) {
  std::vector<cb::Observation> obs;
  for (int a = 0; a < 6; ++a) {
    for (int b = 0; b < 6; ++b) {
      if (a != b)
        obs.push_back(figure(a, b, 0, (a == 3 ? 133.0 : 400.0) + (a * 7 + b * 3) % 5));
    }
  }
  const cb::Diagnosis d = cb::diagnose(obs, 6, 1, std::vector<int>(6, 0), {});
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].kind, cb::ComponentKind::node);
  EXPECT_EQ(d.culprits[0].host, 3);
  EXPECT_EQ(d.culprits[0].direction, cb::Direction::egress);
  EXPECT_NEAR(d.culprits[0].factor, 1.0 / 3, 0.02);
  EXPECT_TRUE(d.notes.empty());
}

// Four nodes of one leaf, one rank each: a node is judged on three figures a direction. Two of
// its sends slow (0.83 x) and one at the typical rate do not convict its egress (seen on the
// emulated cluster, where CPU-bound transfers are noisier than the pooled sigma); all three
// slow do.
TEST(Diagnosis, ThreeFiguresConvictOnlyWhenAllThreeAreSlow) {
  auto fleet = [](double first, double second, double third) {
    std::vector<cb::Observation> obs;
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        if (a == b)
          continue;
        double v = 400.0 + (a * 7 + b * 3) % 5;
        if (a == 0)
          v *= b == 1 ? first : b == 2 ? second : third;
        obs.push_back(figure(a, b, 0, v));
      }
    }
    return cb::diagnose(obs, 4, 1, std::vector<int>(4, 0), {});
  };
  EXPECT_TRUE(fleet(0.83, 0.83, 1.0).culprits.empty());
  const cb::Diagnosis d = fleet(0.35, 0.35, 0.35);
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].host, 0);
  EXPECT_EQ(d.culprits[0].direction, cb::Direction::egress);
}

// Figures of one end alone (src == dst): evidence against that node and rail once. A settled
// figure of a GPU may weigh kMinEvidence; one figure of weight 1 convicts nothing.
// Through the screen and the fabric model: a node slow only in what it sends, or only in what
// it receives, is named with that direction, at 6 and 64 nodes; its partners are not.
TEST(Diagnosis, ANodeSlowOneWayIsNamedWithItsDirection) {
  for (auto direction : {cb::Direction::egress, cb::Direction::ingress}) {
    for (int nodes : {6, 64}) {
      cb::Scenario s = cluster(nodes, 1, nodes, 0.02, 11);
      cb::PlantedFault f = slow_node(3, 1.0 / 3);
      f.direction = direction;
      s.faults = {f};
      const cb::Diagnosis d = screen_and_diagnose(s);
      const char* name = cb::direction_name(direction);
      ASSERT_EQ(d.culprits.size(), 1u) << name << ", " << nodes << " nodes";
      EXPECT_EQ(d.culprits[0].kind, cb::ComponentKind::node);
      EXPECT_EQ(d.culprits[0].host, 3);
      EXPECT_EQ(d.culprits[0].direction, direction) << name;
      EXPECT_NEAR(d.culprits[0].factor, 1.0 / 3, 0.03);
    }
  }
}

// Slow both ways, it is a node (both), not one of its directions.
TEST(Diagnosis, ANodeSlowBothWaysIsNamedOnce) {
  cb::Scenario s = cluster(64, 2, 16, 0.03, 4);
  s.faults = {slow_node(40, 0.5)};
  const cb::Diagnosis d = screen_and_diagnose(s);
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].host, 40);
  EXPECT_EQ(d.culprits[0].direction, cb::Direction::both);
}

TEST(Diagnosis, FiguresOfOneEndNameTheirGpuWhenTheyWeighEnough) {
  std::vector<cb::Observation> obs;
  for (int host = 0; host < 4; ++host) {
    for (int gpu = 0; gpu < 8; ++gpu) {
      cb::Observation o = figure(host, host, 0, host == 2 && gpu == 5 ? 500.0 : 1000.0 + gpu, gpu);
      obs.push_back(o);
    }
  }
  const auto leaves = std::vector<int>(4, 0);
  const cb::Diagnosis weak = cb::diagnose(obs, {cb::EvidenceSource{1}}, 4, 8, leaves, {});
  EXPECT_TRUE(weak.culprits.empty());
  const cb::Diagnosis settled =
      cb::diagnose(obs, {cb::EvidenceSource{cb::kMinEvidence}}, 4, 8, leaves, {});
  ASSERT_EQ(settled.culprits.size(), 1u);
  EXPECT_EQ(settled.culprits[0].kind, cb::ComponentKind::rail);
  EXPECT_EQ(settled.culprits[0].host, 2);
  EXPECT_EQ(settled.culprits[0].gpu, 5);
}

// Two sources at different rates are each judged against their own typical figure: a source
// at half the other's rate is not slow, and a figure slow in its own is.
TEST(Diagnosis, EachSourceIsJudgedAgainstItsOwnTypicalFigure) {
  std::vector<cb::Observation> obs;
  for (int source = 0; source < 2; ++source) {
    for (int a = 0; a < 8; ++a) {
      for (int b = 0; b < 8; ++b) {
        if (a == b)
          continue;
        const double base = source == 0 ? 400.0 : 200.0;
        cb::Observation o =
            figure(a, b, 0, (source == 1 && (a == 6 || b == 6) ? 0.4 : 1) * base + (a * 5 + b) % 3);
        o.source = static_cast<std::uint16_t>(source);
        obs.push_back(o);
      }
    }
  }
  const cb::Diagnosis d = cb::diagnose(obs, {cb::EvidenceSource{}, cb::EvidenceSource{}}, 8, 1,
                                       std::vector<int>(8, 0), {});
  ASSERT_EQ(d.culprits.size(), 1u);
  EXPECT_EQ(d.culprits[0].host, 6);
  EXPECT_EQ(d.culprits[0].direction, cb::Direction::both);
}
