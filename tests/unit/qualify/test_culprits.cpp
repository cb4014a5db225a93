// One diagnosis over every record (qualify/culprits.hpp): synthetic records of each defect the
// per-record outlier rule had, and what the culprits must be.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.hpp"
#include "diagnosis/topology.hpp"
#include "qualify/culprits.hpp"
#include "qualify/qualify.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;

std::vector<std::string> hosts(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)
    out.push_back("node" + std::to_string(i));
  return out;
}

// A pair test across `n` nodes (one rank each) whose node matrix holds `rate(src, dst)`.
template <class Rate> cb::Record pair_bw(int n, Rate rate) {
  cb::Record r = cb::test::gpu_record("links", "pair_bw", std::vector<double>(n, 1.0), hosts(n));
  json matrix = json::array();
  for (int a = 0; a < n; ++a) {
    json row = json::array();
    for (int b = 0; b < n; ++b)
      row.push_back(a == b ? json() : json(rate(a, b)));
    matrix.push_back(row);
  }
  r.extra = {{"schedule", "rounds"},
             {"matrix_of", "nodes"},
             {"matrix_members", hosts(n)},
             {"matrix", std::move(matrix)},
             {"matrix_metric", "gbps"}};
  return r;
}

// ring_bw over `n` nodes, one rank each: rank i received `received[i]` from rank i - 1.
cb::Record ring_bw(const std::vector<double>& received) {
  return cb::test::gpu_record("links", "ring_bw", received,
                              hosts(static_cast<int>(received.size())));
}

cb::CulpritReport culprits_of(std::vector<cb::Record> records,
                              const cb::Topology* topology = nullptr) {
  cb::ResultsFile file;
  file.records = std::move(records);
  return cb::find_culprits(file, "run.json", topology, 3);
}

// A little noise, seeded: figures of a real fleet are never equal.
double jitter(std::mt19937& rng, double spread = 0.02) {
  return 1 + std::uniform_real_distribution<double>(-spread, spread)(rng);
}

} // namespace

// Six nodes, node 3's egress at a third of the rate: ring_bw's rank 4 receives from it and looks
// slow; the diagnosis names node 3 (its egress) and never its ring successor.
TEST(Culprits, ASlowEgressNamesThatNodeNotItsRingSuccessor) {
  std::mt19937 rng(3);
  auto rate = [&](int a, int) { return (a == 3 ? 400.0 / 3 : 400.0) * jitter(rng); };
  std::vector<double> ring(6);
  for (int i = 0; i < 6; ++i)
    ring[static_cast<std::size_t>(i)] = ((i + 5) % 6 == 3 ? 400.0 / 3 : 400.0) * jitter(rng);
  const cb::CulpritReport r = culprits_of({pair_bw(6, rate), ring_bw(ring)});
  ASSERT_EQ(r.culprits.size(), 1u) << (r.notes.empty() ? "" : r.notes[0]);
  EXPECT_EQ(r.culprits[0].kind, "node");
  EXPECT_EQ(r.culprits[0].host, "node3");
  EXPECT_EQ(r.culprits[0].direction, "egress");
  EXPECT_NEAR(r.culprits[0].factor, 1.0 / 3, 0.03);
  ASSERT_FALSE(r.culprits[0].records.empty());
  EXPECT_TRUE(r.notes.empty()) << r.notes[0];
}

// ring_bw alone with one slow hop: one figure against each end is too little to tell the sender
// from the receiver; nothing is named, a note says so.
TEST(Culprits, OneSlowRingHopAloneNamesNothingButANote) {
  std::vector<double> ring(6, 400.0);
  ring[4] = 133;
  const cb::CulpritReport r = culprits_of({ring_bw(ring)});
  EXPECT_TRUE(r.culprits.empty());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("node3 -> host node4"), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[0].find("sender from its receiver"), std::string::npos) << r.notes[0];
}

// Every node at one rate, one ring_bw record of a single sample, noisy: it convicts nothing.
TEST(Culprits, ASingleSampleNoisyRecordConvictsNothing) {
  std::mt19937 rng(7);
  cb::Record ring = ring_bw({400, 400, 360, 400, 400, 400});
  ring.samples_s = {0.2};
  ring.status = cb::RecordStatus::noisy;
  ring.reason = "only 1 samples before the 0.20 s cap";
  const cb::CulpritReport r =
      culprits_of({pair_bw(6, [&](int, int) { return 400.0 * jitter(rng); }), ring});
  EXPECT_TRUE(r.culprits.empty());
  ASSERT_EQ(r.not_weighed.size(), 1u);
  EXPECT_NE(r.not_weighed[0].find("noisy"), std::string::npos);
  EXPECT_TRUE(r.judged());
}

// Four GPUs with almost no spread, one at 0.955: a robust z of -16, but inside the tolerance.
TEST(Culprits, AGpuInsideTheToleranceConvictsNothing) {
  const cb::CulpritReport r =
      culprits_of({cb::test::gpu_record("compute", "gemm_bf16", {1000, 1000.5, 999.8, 955})});
  EXPECT_TRUE(r.culprits.empty());
  EXPECT_TRUE(r.judged());
}

// A GPU at half its peers' rate in a compute record is named, with its device number and UUID.
TEST(Culprits, ASlowGpuInAComputeRecordIsNamed) {
  const cb::CulpritReport r = culprits_of(
      {cb::test::gpu_record("compute", "gemm_bf16", {1000, 1010, 990, 500, 1005, 995, 1000, 998})});
  ASSERT_EQ(r.culprits.size(), 1u);
  EXPECT_EQ(r.culprits[0].kind, "gpu");
  EXPECT_EQ(r.culprits[0].host, "n1");
  EXPECT_EQ(r.culprits[0].gpu, 3);
  EXPECT_EQ(r.culprits[0].uuid, "GPU-3");
  EXPECT_NEAR(r.culprits[0].factor, 0.5, 0.02);
}

// Three leaves of four nodes; leaf B's uplink at half the rate: its nodes are slow with every
// partner outside and fast inside. With the topology the uplink is named with its switch; without
// one the nodes are not named either: a split note says a switch is between them and the rest.
TEST(Culprits, ASlowUplinkIsNamedWithItsSwitchGivenATopology) {
  std::mt19937 rng(11);
  auto leaf = [](int node) { return node / 4; };
  auto rate = [&](int a, int b) {
    const bool slow = leaf(a) != leaf(b) && (leaf(a) == 1 || leaf(b) == 1);
    return (slow ? 200.0 : 400.0) * jitter(rng);
  };
  const cb::Topology topology = cb::parse_slurm_topology(
      "SwitchName=leafA Nodes=node[0-3]\nSwitchName=leafB Nodes=node[4-7]\n"
      "SwitchName=leafC Nodes=node[8-11]\nSwitchName=spine Switches=leafA,leafB,leafC\n",
      "topo.conf");
  const std::vector<cb::Record> records = {pair_bw(12, rate)};
  const cb::CulpritReport r = culprits_of(records, &topology);
  ASSERT_EQ(r.culprits.size(), 1u) << cb::culprit_label(r.culprits[1]);
  EXPECT_EQ(r.culprits[0].kind, "uplink");
  EXPECT_EQ(r.culprits[0].switch_name, "leafB");
  EXPECT_EQ(r.culprits[0].hosts_total, 4u);
  EXPECT_NEAR(r.culprits[0].factor, 0.5, 0.05);
  const cb::CulpritReport alone = culprits_of(records);
  EXPECT_TRUE(alone.culprits.empty()) << cb::culprit_label(alone.culprits[0]);
  ASSERT_FALSE(alone.notes.empty());
  EXPECT_NE(alone.notes[0].find("split: 4 nodes (node4, node5, node6, node7)"), std::string::npos)
      << alone.notes[0];
}

// A job host the topology does not place is bad input.
TEST(Culprits, AHostOutsideTheTopologyIsBadInput) {
  const cb::Topology topology =
      cb::parse_slurm_topology("SwitchName=leafA Nodes=node[0-2]\n", "topo.conf");
  EXPECT_THROW(culprits_of({pair_bw(4, [](int, int) { return 400.0; })}, &topology),
               cb::InputError);
}

// A healthy fleet of many GPUs over many records names none: the threshold holds over all of
// them, not per figure.
TEST(Culprits, AHealthyFleetOfManyGpusNamesNone) {
  std::mt19937 rng(5);
  std::vector<std::string> names = hosts(256);
  std::vector<cb::Record> records;
  for (int rec = 0; rec < 4; ++rec) {
    std::vector<double> figures(2048);
    for (auto& f : figures)
      f = 1000 * jitter(rng, 0.04);
    records.push_back(
        cb::test::gpu_record("compute", "gemm_" + std::to_string(rec), figures, names));
  }
  const cb::CulpritReport r = culprits_of(records);
  EXPECT_TRUE(r.culprits.empty()) << cb::culprit_label(r.culprits[0]);
}

// Impossible values of a pair test: exit 2 naming the file and field.
TEST(Culprits, APairTestsImpossibleValuesAreBadInput) {
  cb::Record r = pair_bw(4, [](int, int) { return 400.0; });
  r.extra["matrix"][1][2] = -5;
  EXPECT_THROW(
      {
        try {
          culprits_of({r});
        } catch (const cb::InputError& e) {
          EXPECT_NE(std::string(e.what()).find("run.json: extra.matrix"), std::string::npos)
              << e.what();
          throw;
        }
      },
      cb::InputError);
}

// Both ways on the host backend, nodes 6 and 7 with their pairs at half duplex (as a healthy
// fleet gave them on the emulated cluster): judged, the pairs convict the two; a record that
// says its pairs are not judged across nodes convicts nothing and is listed as not weighed.
TEST(Culprits, APairTestNotJudgedAcrossNodesConvictsNothing) {
  std::mt19937 rng(5);
  auto rate = [&](int a, int b) { return (a >= 6 || b >= 6 ? 0.012 : 0.024) * jitter(rng, 0.01); };
  cb::Record r = pair_bw(8, rate);
  r.params = {{"direction", "bi"}};
  ASSERT_FALSE(culprits_of({r}).culprits.empty());
  r.extra["second_pass"] = {{"judged", false}, {"why", "both ways over the host transport"}};
  const cb::CulpritReport report = culprits_of({r});
  EXPECT_TRUE(report.culprits.empty());
  EXPECT_EQ(report.sources, 0u);
  ASSERT_EQ(report.not_weighed.size(), 1u);
  EXPECT_NE(report.not_weighed[0].find("measured, not judged across nodes"), std::string::npos)
      << report.not_weighed[0];
}

// The fleet verdict: a culprit fails it; an outlier no culprit explains does not.
TEST(Culprits, OnlyACulpritFailsTheFleet) {
  cb::ResultsFile file;
  file.records = {cb::test::gpu_record("compute", "gemm_bf16", {1000, 1000.5, 999.8, 955})};
  cb::Spec spec;
  spec.name = "test";
  const cb::QualifyReport pass = cb::qualify(file, "run.json", spec);
  ASSERT_TRUE(pass.fleet_verdict);
  EXPECT_EQ(*pass.fleet_verdict, cb::Verdict::pass);
  EXPECT_FALSE(pass.fleet.outliers.empty()); // the 0.955 GPU stays as evidence
  file.records = {cb::test::gpu_record("compute", "gemm_bf16", {1000, 1000.5, 999.8, 500})};
  const cb::QualifyReport fail = cb::qualify(file, "run.json", spec);
  EXPECT_EQ(*fail.fleet_verdict, cb::Verdict::fail);
}

// A device number no node has is bad input, not a million candidates.
TEST(Culprits, ADeviceNumberBeyondAnyNodeIsBadInput) {
  cb::Record r = cb::test::gpu_record("compute", "gemm_bf16", {1000, 1000, 1000, 1000});
  r.per_rank[2]["device"] = 60000;
  EXPECT_THROW(culprits_of({r}), cb::InputError);
}

// A screen record (extra.observations, extra.screen): its one-way figures per rail are the
// evidence and its groups stand for the leaves. A group slow with every outsider and fast inside
// is the switching between it and the rest: a note (no switch is known), no node named.
TEST(Culprits, AScreenRecordsGroupsStandInForTheLeaves) {
  std::mt19937 rng(13);
  const int n = 12;
  json src = json::array(), dst = json::array(), rail = json::array(), round = json::array(),
       value = json::array();
  auto group = [](int node) { return node / 4; };
  int r = 0;
  for (int shift = 1; shift < n; ++shift, ++r) {
    for (int a = 0; a < n; ++a) {
      const int b = (a + shift) % n;
      for (int g = 0; g < 2; ++g) {
        const bool slow = group(a) != group(b) && (group(a) == 1 || group(b) == 1);
        src.push_back(a);
        dst.push_back(b);
        rail.push_back(g);
        round.push_back(r);
        value.push_back((slow ? 200.0 : 400.0) * jitter(rng));
      }
    }
  }
  cb::Record screen =
      cb::test::gpu_record("links", "pair_bw", std::vector<double>(n, 1.0), hosts(n));
  screen.extra = {
      {"schedule", "screen"},
      {"matrix_of", "nodes"},
      {"matrix_members", hosts(n)},
      {"matrix_metric", "gbps"},
      {"observations",
       {{"src", src}, {"dst", dst}, {"rail", rail}, {"round", round}, {"value", value}}},
      {"screen",
       {{"groups", "sqrt"},
        {"group_of_node", {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}},
        {"group_names", {"group0", "group1", "group2"}}}}};
  const cb::CulpritReport report = culprits_of({screen});
  EXPECT_TRUE(report.culprits.empty()) << cb::culprit_label(report.culprits[0]);
  EXPECT_FALSE(report.topology_known);
  bool noted = false;
  for (const auto& note : report.notes)
    noted |=
        note.find("screen group group1 is slow with every node outside it") != std::string::npos;
  EXPECT_TRUE(noted) << (report.notes.empty() ? "no note" : report.notes[0]);
}

// The second pass retests suspect pairs: a retest stands for its pair's cell, so a node slow with
// two of its five partners (slow pairs, no slow node) is not made slow by its retests.
TEST(Culprits, RetestsDoNotWeighASuspectsSlowPairsTwice) {
  std::mt19937 rng(17);
  // Pairs inside {0, 2, 4} and inside {1, 3, 5} are slow both ways; no node is.
  auto slow_pair = [](int a, int b) { return a % 2 == b % 2; };
  cb::Record r =
      pair_bw(6, [&](int a, int b) { return (slow_pair(a, b) ? 100.0 : 400.0) * jitter(rng); });
  json ends = json::array();
  for (int partner : {2, 4, 1})
    ends.push_back({{"node", 0}, {"partner", partner}, {"gbps", (partner == 1 ? 400.0 : 100.0)}});
  json pairs = json::array();
  pairs.push_back({{"nodes", {0, 2}}, {"gbps", 100.0}});
  pairs.push_back({{"nodes", {2, 0}}, {"gbps", 100.0}});
  r.extra["second_pass"] = {{"metric", "gbps"}, {"end_retests", ends}, {"pair_retests", pairs}};
  const cb::CulpritReport report = culprits_of({r});
  EXPECT_TRUE(report.culprits.empty()) << cb::culprit_label(report.culprits[0]);
}
