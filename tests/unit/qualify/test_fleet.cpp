#include <gtest/gtest.h>

#include <set>

#include "qualify/fleet.hpp"
#include "test_support.hpp"

using namespace cb;

TEST(Fleet, RobustZIsScaledByTheMad) {
  EXPECT_NEAR(*robust_z(90, 100, 2), 0.6745 * -10 / 2, 1e-12);
  EXPECT_NEAR(*robust_z(104, 100, 2), 0.6745 * 4 / 2, 1e-12);
  EXPECT_FALSE(robust_z(90, 100, 0).has_value());
}

TEST(Fleet, FlagsBothRules) {
  const FleetRules rules;
  // median 100; deviations 0 1 1 0 15 0 2 2 -> MAD 1; 85 has z -10.1 and is under 0.90 x 100.
  const auto flags = flag_outliers({100, 101, 99, 100, 85, 100, 102, 98}, rules, false);
  EXPECT_DOUBLE_EQ(flags.median, 100);
  EXPECT_DOUBLE_EQ(flags.mad, 1);
  for (std::size_t i = 0; i < 8; ++i)
    EXPECT_EQ(flags.any(i), i == 4) << i;
  EXPECT_TRUE(flags.by_robust_z[4]);
  EXPECT_TRUE(flags.by_fraction[4]);
  EXPECT_NEAR(*flags.robust_z[4], -10.1175, 1e-4);
  // 97 is 3 MADs low: z -2.0, above -3.5, and 0.97 x the median: not an outlier.
  EXPECT_FALSE(flag_outliers({100, 101, 99, 100, 97, 100, 102, 98}, rules, false).any(4));
  // A fast member is never an outlier of a higher-is-better fleet.
  EXPECT_FALSE(flag_outliers({100, 101, 99, 100, 150, 100, 102, 98}, rules, false).any(4));
}

TEST(Fleet, ZeroMadLeavesTheFractionRuleAlone) {
  const FleetRules rules;
  const auto within = flag_outliers({100, 100, 100, 100, 95}, rules, false);
  EXPECT_DOUBLE_EQ(within.mad, 0);
  EXPECT_FALSE(within.robust_z[4].has_value());
  EXPECT_FALSE(within.any(4)); // 0.95 x the median: not under 0.90
  const auto below = flag_outliers({100, 100, 100, 100, 89}, rules, false);
  EXPECT_TRUE(below.by_fraction[4]);
  EXPECT_FALSE(below.by_robust_z[4]);
}

TEST(Fleet, LatenciesAreBadWhenHigh) {
  const FleetRules rules;
  const auto flags = flag_outliers({10, 10.1, 9.9, 10, 14}, rules, true);
  EXPECT_TRUE(flags.by_robust_z[4]);
  EXPECT_TRUE(flags.by_fraction[4]); // 14 > 10 / 0.90
  EXPECT_FALSE(flag_outliers({10, 10.1, 9.9, 10, 7}, rules, true).any(4));
}

TEST(Fleet, MinimumDeviationGuardsTightFleets) {
  FleetRules rules;
  const std::vector<double> tight = {100, 100.1, 99.9, 100, 99.4}; // z -4.0, only 0.6 % low
  EXPECT_TRUE(flag_outliers(tight, rules, false).by_robust_z[4]);
  rules.min_deviation = 0.02;
  EXPECT_FALSE(flag_outliers(tight, rules, false).any(4));
}

TEST(Fleet, NamesTheSlowGpuWithHostDeviceAndUuid) {
  ResultsFile f;
  f.records.push_back(
      test::gpu_record("compute", "copy", {4300, 4310, 4290, 4305, 4295, 3655, 4302, 4298}));
  const FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_EQ(report.fleets_examined, 1); // one host: no node fleet
  ASSERT_EQ(report.outliers.size(), 1u);
  const Outlier& o = report.outliers[0];
  EXPECT_EQ(o.kind, FleetKind::gpu);
  EXPECT_EQ(o.who.host, "n1");
  EXPECT_EQ(o.who.device, 5);
  EXPECT_EQ(o.who.uuid, "GPU-5");
  EXPECT_DOUBLE_EQ(o.value, 3655);
  EXPECT_DOUBLE_EQ(o.fleet_median, 4299);
  EXPECT_NEAR(o.ratio, 3655.0 / 4299, 1e-12);
  EXPECT_EQ(o.metric, "gbps");
  ASSERT_EQ(report.suspects.size(), 1u);
  EXPECT_EQ(report.suspects[0].label, "host n1 GPU 5 (GPU-5)");
}

TEST(Fleet, ComparesNodesByTheirMeanGpu) {
  ResultsFile f;
  // Four hosts, two GPUs each (rank i on host i % 4); host n3's GPUs are both 20 % slow.
  f.records.push_back(test::gpu_record(
      "storage", "seq_read", {10, 10.2, 9.9, 8, 10.1, 9.8, 10, 8.1}, {"n0", "n1", "n2", "n3"}));
  const FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_EQ(report.fleets_examined, 2);
  bool node_named = false;
  for (const auto& o : report.outliers) {
    if (o.kind == FleetKind::node) {
      node_named = true;
      EXPECT_EQ(o.who.host, "n3");
      EXPECT_NEAR(o.value, 8.05, 1e-12);
    }
  }
  EXPECT_TRUE(node_named);
}

TEST(Fleet, NamesASlowLinkAndTheGpuBehindSeveral) {
  Record r = test::gpu_record("links", "p2p", {372, 372, 372, 372});
  r.per_rank.clear();
  for (int i = 0; i < 4; ++i) {
    r.per_rank.push_back(
        {{"rank", i}, {"host", "n1"}, {"device", i}, {"uuid", "U" + std::to_string(i)}});
  }
  r.metrics = {{"gbps", 372}};
  // GPU 2's outgoing links run at 60 %; everything else ~372.
  r.extra["matrix"] = {{nullptr, 372, 371, 373},
                       {372, nullptr, 373, 371},
                       {223, 224, nullptr, 222},
                       {371, 372, 373, nullptr}};
  ResultsFile f;
  f.records.push_back(r);
  const FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_EQ(report.fleets_examined, 1); // per_rank has no figure: only the link fleet
  ASSERT_EQ(report.outliers.size(), 3u);
  for (const auto& o : report.outliers) {
    EXPECT_EQ(o.kind, FleetKind::link);
    EXPECT_EQ(o.who.device, 2);
  }
  EXPECT_EQ(member_label(FleetKind::link, report.outliers[0].who, report.outliers[0].to),
            "host n1 GPU 2 -> GPU 0");
  FleetMember unnamed;
  unnamed.device = 3;
  FleetMember other;
  other.device = 2;
  EXPECT_EQ(member_label(FleetKind::link, unnamed, other), "GPU 3 -> GPU 2");
  EXPECT_EQ(member_label(FleetKind::gpu, unnamed), "GPU 3");
  ASSERT_FALSE(report.suspects.empty());
  EXPECT_TRUE(report.suspects[0].via_links);
  EXPECT_EQ(report.suspects[0].who.device, 2);
  EXPECT_EQ(report.suspects[0].outliers, 3);
}

TEST(Fleet, SmallFleetsAndSkippedRecordsAreNotJudged) {
  ResultsFile f;
  f.records.push_back(test::gpu_record("compute", "copy", {100, 50}));
  Record skipped = test::gpu_record("compute", "copy", {100, 100, 100, 10});
  skipped.status = RecordStatus::skipped;
  f.records.push_back(skipped);
  const FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_EQ(report.fleets_examined, 0);
  EXPECT_TRUE(report.outliers.empty());
}

TEST(Fleet, LinkTiersAreSeparateFleetsAndLatencyMatricesPointDown) {
  // Two nodes of two ranks: inter-node links are ~10x slower than intra-node ones by design.
  Record r = test::gpu_record("links", "pair_latency", {1, 1, 1, 1}, {"n1", "n1", "n2", "n2"});
  r.per_rank.clear();
  r.metrics = {{"latency_us", 2.0}, {"time_us", 2.0}};
  const nlohmann::json intra = "intra", inter = "inter";
  r.extra["matrix"] = {{nullptr, 0.3, 2.0, 2.1},
                       {0.3, nullptr, 2.0, 2.0},
                       {2.1, 2.0, nullptr, 0.3},
                       {2.0, 2.1, 0.3, nullptr}};
  r.extra["tier_matrix"] = {{nullptr, intra, inter, inter},
                            {intra, nullptr, inter, inter},
                            {inter, inter, nullptr, intra},
                            {inter, inter, intra, nullptr}};
  ResultsFile f;
  f.records.push_back(r);
  FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_EQ(report.fleets_examined, 2); // 4 intra links, 8 inter links
  EXPECT_TRUE(report.outliers.empty());

  // One inter-node link at 3.5 us: slow for a latency, so high is the bad side.
  f.records[0].extra["matrix"][0][3] = 3.5;
  report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.outliers.size(), 1u);
  EXPECT_EQ(report.outliers[0].metric, "latency_us");
  EXPECT_EQ(report.outliers[0].fleet_size, 8u);
  EXPECT_NEAR(report.outliers[0].ratio, 2.0 / 3.5, 1e-12);
}

namespace {
// A pair_bw record across 6 one-rank nodes whose second pass named `verdicts`; node n3's row is
// slow, as every pair of a slow node is.
Record node_pair_record(const nlohmann::json& verdicts) {
  std::vector<double> per_node(6, 0.05);
  per_node[2] = 0.016;
  Record r = test::gpu_record("links", "pair_bw", per_node, {"n1", "n2", "n3", "n4", "n5", "n6"});
  nlohmann::json matrix = nlohmann::json::array();
  for (int a = 0; a < 6; ++a) {
    nlohmann::json row = nlohmann::json::array();
    for (int b = 0; b < 6; ++b)
      row.push_back(a == b ? nlohmann::json(nullptr)
                           : nlohmann::json(a == 2 || b == 2 ? 0.016 : 0.05));
    matrix.push_back(row);
  }
  r.extra["matrix"] = matrix;
  r.extra["matrix_metric"] = "gbps";
  r.extra["second_pass"] = {{"metric", "gbps"}, {"reference", 0.05}, {"verdicts", verdicts}};
  return r;
}
} // namespace

TEST(Fleet, ASecondPassNamesTheSlowNodeAloneNotItsPartnersOrItsGpu) {
  ResultsFile f;
  f.records.push_back(node_pair_record(
      nlohmann::json::array({{{"kind", "node"}, {"node", 2}, {"host", "n3"}, {"gbps", 0.016}}})));
  const FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.outliers.size(), 1u);
  EXPECT_EQ(report.outliers[0].kind, FleetKind::node);
  EXPECT_EQ(report.outliers[0].who.host, "n3");
  EXPECT_TRUE(report.outliers[0].by_second_pass);
  EXPECT_NEAR(report.outliers[0].ratio, 0.32, 1e-9);
  EXPECT_EQ(report.outliers[0].fleet_size, 6u);
  ASSERT_EQ(report.suspects.size(), 1u);
  EXPECT_EQ(report.suspects[0].label, "node n3");
}

// A pair test across nodes measured but not judged (the host backend's both-ways pairs): its
// slow row names nobody, by the second pass or by the matrix's fleet rules, whatever it lists.
TEST(Fleet, APairTestNotJudgedAcrossNodesNamesNothing) {
  ResultsFile f;
  Record r = node_pair_record(
      nlohmann::json::array({{{"kind", "node"}, {"node", 2}, {"host", "n3"}, {"gbps", 0.016}}}));
  r.extra["second_pass"]["judged"] = false;
  r.extra["second_pass"]["why"] = "both ways at once over the host backend's MPI transport";
  f.records.push_back(r);
  const FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_TRUE(report.outliers.empty());
  EXPECT_TRUE(report.suspects.empty());
  EXPECT_TRUE(report.notes.empty());
}

TEST(Fleet, ASecondPassWhoseMetricIsNotAStringFallsBackToTheMatrixMetric) {
  // A foreign or hand-edited file: the metric is a number. The verdict is still read, judged by
  // the matrix's own metric, and nothing throws.
  ResultsFile f;
  Record r = node_pair_record(
      nlohmann::json::array({{{"kind", "node"}, {"node", 2}, {"host", "n3"}, {"gbps", 0.016}}}));
  r.extra["second_pass"]["metric"] = 7;
  f.records.push_back(r);
  FleetReport report;
  ASSERT_NO_THROW(report = analyze_fleet(f, FleetRules{}));
  ASSERT_EQ(report.outliers.size(), 1u);
  EXPECT_EQ(report.outliers[0].who.host, "n3");
  EXPECT_NEAR(report.outliers[0].ratio, 0.32, 1e-9);
}

TEST(Fleet, ASecondPassLinkIsNamedByItsHostsAndNoEndIsBlamed) {
  ResultsFile f;
  f.records.push_back(node_pair_record(nlohmann::json::array(
      {{{"kind", "link"}, {"nodes", {1, 4}}, {"hosts", {"n2", "n5"}}, {"gbps", 0.02}}})));
  const FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.outliers.size(), 1u);
  EXPECT_EQ(report.outliers[0].kind, FleetKind::link);
  EXPECT_EQ(member_label(FleetKind::link, report.outliers[0].who, report.outliers[0].to),
            "link n2 <-> n5");
  ASSERT_EQ(report.suspects.size(), 1u);
  EXPECT_EQ(report.suspects[0].kind, FleetKind::link);
}

TEST(Fleet, ATierThatIsNotUniformAndUnresolvedPairsWarnWithoutNamingAnything) {
  // A slow majority: the second pass named nothing, but 3 pairs among n1, n2, n4 beat the typical
  // pair, and 2 suspect pairs had no known-good partner.
  ResultsFile f;
  Record r = node_pair_record(nlohmann::json::array());
  r.extra["second_pass"]["better_than_reference"] = {
      {"pairs", 3}, {"nodes", {0, 1, 3}}, {"hosts", {"n1", "n2", "n4"}}};
  r.extra["second_pass"]["unresolved"] = {{0, 2}, {2, 5}};
  r.extra["second_pass"]["beyond_cap"] = {{"end_retests", 0}, {"pair_retests", 0}};
  f.records.push_back(r);
  FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_TRUE(report.outliers.empty());
  EXPECT_TRUE(report.suspects.empty());
  EXPECT_EQ(report.failing(), 0u);
  ASSERT_EQ(report.notes.size(), 2u);
  EXPECT_EQ(report.notes[0].kind, FleetNoteKind::not_uniform);
  EXPECT_EQ(report.notes[0].pairs, 3u);
  EXPECT_EQ(report.notes[0].members, 6u);
  EXPECT_EQ(report.notes[0].hosts, (std::vector<std::string>{"n1", "n2", "n4"}));
  EXPECT_EQ(report.notes[1].kind, FleetNoteKind::unresolved);
  EXPECT_EQ(report.notes[1].pairs, 2u);
  EXPECT_FALSE(report.notes[1].beyond_cap);

  // A uniform tier, everything resolved: no note.
  f.records[0].extra["second_pass"]["better_than_reference"]["pairs"] = 0;
  f.records[0].extra["second_pass"]["unresolved"] = nlohmann::json::array();
  EXPECT_TRUE(analyze_fleet(f, FleetRules{}).notes.empty());
}

TEST(Fleet, NotesReadAHostileSecondPassWithoutThrowing) {
  // A hand-edited file: wrong types everywhere. Nothing throws; what cannot be read is no note,
  // and no figure beyond what a tier of 6 holds (15 pairs, 6 nodes) is printed.
  struct Case {
    nlohmann::json better;
    std::size_t notes, pairs, hosts_total;
    std::vector<std::string> hosts;
  };
  const std::vector<Case> cases = {
      {"many", 0, 0, 0, {}},
      {{{"pairs", -4}}, 0, 0, 0, {}},
      {{{"pairs", "3"}}, 0, 0, 0, {}},
      {{{"pairs", 2}, {"hosts", {1, nullptr, "n9"}}}, 1, 2, 3, {"n9"}},
      {{{"pairs", 2}, {"hosts", "n1"}, {"nodes", {0, 1}}}, 1, 2, 2, {}},
      {{{"pairs", 1000000000000000LL}, {"nodes", {0, 1, 2, 3, 4, 5, 6, 7, 8}}}, 1, 15, 6, {}},
  };
  for (const auto& c : cases) {
    ResultsFile f;
    Record r = node_pair_record(nlohmann::json::array());
    r.extra["second_pass"]["better_than_reference"] = c.better;
    r.extra["second_pass"]["unresolved"] = "none";
    r.extra["second_pass"]["beyond_cap"] = {{"end_retests", "x"}};
    f.records.push_back(r);
    FleetReport report;
    ASSERT_NO_THROW(report = analyze_fleet(f, FleetRules{})) << c.better.dump();
    ASSERT_EQ(report.notes.size(), c.notes) << c.better.dump();
    for (const auto& n : report.notes) {
      EXPECT_EQ(n.kind, FleetNoteKind::not_uniform);
      EXPECT_EQ(n.pairs, c.pairs) << c.better.dump();
      EXPECT_EQ(n.hosts_total, c.hosts_total) << c.better.dump();
      EXPECT_EQ(n.hosts, c.hosts) << c.better.dump();
    }
  }
  // An unresolved list longer than the tier's pairs is counted at most as the tier's pairs.
  ResultsFile f;
  Record r = node_pair_record(nlohmann::json::array());
  r.extra["second_pass"]["unresolved"] = nlohmann::json(std::vector<std::vector<int>>(40, {0, 1}));
  f.records.push_back(r);
  const FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].pairs, 15u);
}

TEST(Fleet, ATierSplitInGroupsWarnsAndNamesNoNode) {
  // n1 and n2 behind one switch: slow with every known-good partner, fast with each other. The
  // second pass named no node; the fleet warns of the split and fails nothing.
  ResultsFile f;
  Record r = node_pair_record(nlohmann::json::array());
  r.extra["second_pass"]["split"] = {{"groups", {{{"nodes", {0, 1}}, {"hosts", {"n1", "n2"}}}}},
                                     {"pairs", 8}};
  f.records.push_back(r);
  FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_TRUE(report.suspects.empty());
  EXPECT_EQ(report.failing(), 0u);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].kind, FleetNoteKind::split);
  EXPECT_EQ(fleet_note_kind_name(report.notes[0].kind), "split");
  EXPECT_EQ(report.notes[0].groups, 1u);
  EXPECT_EQ(report.notes[0].pairs, 8u);
  EXPECT_EQ(report.notes[0].hosts, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(report.notes[0].hosts_total, 2u);

  // Hostile: a group that is not an object, lacks hosts, or lists fewer than two distinct hosts
  // (or hosts another group has, or more than the tier holds) is no group; no group, or no pair
  // across, is no note; the pairs are no more than the tier holds.
  const nlohmann::json empty_groups(
      std::vector<nlohmann::json>(1000, {{"hosts", nlohmann::json::array()}}));
  for (const nlohmann::json& split :
       {nlohmann::json("x"), nlohmann::json{{"groups", "all"}, {"pairs", 3}},
        nlohmann::json{{"groups", nlohmann::json::array()}, {"pairs", 3}},
        nlohmann::json{{"groups", {1, "a", {{"nodes", {0}}}}}, {"pairs", 3}},
        nlohmann::json{{"groups", empty_groups}, {"pairs", 3}},
        nlohmann::json{{"groups", {{{"hosts", {"n1", "n1", "n1", 4}}}}}, {"pairs", 3}},
        nlohmann::json{{"groups", {{{"hosts", {"n1", "n2", "n3", "n4", "n5", "n6", "n7"}}}}},
                       {"pairs", 3}},
        nlohmann::json{{"groups", {{{"hosts", {"n1", "n2"}}}}}, {"pairs", 0}},
        nlohmann::json{{"groups", {{{"hosts", {"n1", "n2"}}}}}}}) {
    f.records[0].extra["second_pass"]["split"] = split;
    ASSERT_NO_THROW(report = analyze_fleet(f, FleetRules{})) << split.dump();
    EXPECT_TRUE(report.notes.empty()) << split.dump();
  }
  f.records[0].extra["second_pass"]["split"] = {
      {"groups",
       {{{"hosts", {"n1", 7, "n2", "n1"}}}, {{"hosts", {"n2", "n3"}}}, {{"hosts", {"n4", "n5"}}}}},
      {"pairs", 1000000}};
  report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].pairs, 15u);
  EXPECT_EQ(report.notes[0].groups, 2u); // n1 n2, and n4 n5: n3 alone is no group
  EXPECT_EQ(report.notes[0].hosts, (std::vector<std::string>{"n1", "n2", "n4", "n5"}));
  EXPECT_EQ(report.notes[0].hosts_total, 4u);
}

TEST(Fleet, ANoteListsAtMostSixteenHostsAndSaysHowManyInAll) {
  ResultsFile f;
  Record r = node_pair_record(nlohmann::json::array());
  nlohmann::json hosts = nlohmann::json::array();
  for (int i = 0; i < 40; ++i) {
    std::string host = "h";
    host += std::to_string(i);
    hosts.push_back(host);
  }
  r.extra["matrix"] = test::uniform_matrix(40, 0.05); // a tier of 40 nodes, all in the note
  r.extra["second_pass"]["better_than_reference"] = {{"pairs", 780}, {"hosts", hosts}};
  f.records.push_back(r);
  const FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].hosts.size(), FleetNote::kNoteHosts);
  EXPECT_EQ(report.notes[0].hosts_total, 40u);
}

TEST(Fleet, ALinkOnANodeAnotherRecordNamedSlowIsTheNodesNotALinkOfItsOwn) {
  // The one-way record names node n3; the both-ways record, where n3's unshaped direction
  // carried half of each pair, names a link n3 <-> n6: the fleet names the node alone.
  ResultsFile f;
  f.records.push_back(node_pair_record(
      nlohmann::json::array({{{"kind", "node"}, {"node", 2}, {"host", "n3"}, {"gbps", 0.016}}})));
  f.records.push_back(node_pair_record(nlohmann::json::array(
      {{{"kind", "link"}, {"nodes", {2, 5}}, {"hosts", {"n3", "n6"}}, {"gbps", 0.024}}})));
  f.records.push_back(node_pair_record(nlohmann::json::array(
      {{{"kind", "link"}, {"nodes", {0, 4}}, {"hosts", {"n1", "n5"}}, {"gbps", 0.02}}})));
  const FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.outliers.size(), 2u);
  EXPECT_EQ(report.outliers[0].kind, FleetKind::node);
  EXPECT_EQ(report.outliers[1].kind, FleetKind::link); // a link between two good nodes stays
  EXPECT_EQ(report.outliers[1].who.host, "n1");
}

TEST(Fleet, TheGpuPairsInsideEachNodeOfAMultiNodePairTestAreOneFleet) {
  // 4 nodes of 4 GPUs; the node pairs are healthy (no verdict), but GPU 1 of n3 moves its
  // intra-node pairs at 60 %: its links are named with host and device, across all 4 nodes'
  // 48 intra-node links.
  const std::vector<std::string> hosts = {"n1", "n1", "n1", "n1", "n2", "n2", "n2", "n2",
                                          "n3", "n3", "n3", "n3", "n4", "n4", "n4", "n4"};
  Record r = test::gpu_record("links", "pair_bw", std::vector<double>(16, 300), hosts);
  for (int i = 0; i < 16; ++i)
    r.per_rank[static_cast<std::size_t>(i)]["device"] = i % 4;
  r.extra["matrix_metric"] = "gbps";
  r.extra["matrix"] = {
      {nullptr, 45, 45, 45}, {45, nullptr, 45, 45}, {45, 45, nullptr, 45}, {45, 45, 45, nullptr}};
  r.extra["second_pass"] = {
      {"metric", "gbps"}, {"reference", 45}, {"verdicts", nlohmann::json::array()}};
  nlohmann::json nodes = nlohmann::json::array();
  for (int node = 0; node < 4; ++node) {
    nlohmann::json matrix = nlohmann::json::array();
    for (int a = 0; a < 4; ++a) {
      nlohmann::json row = nlohmann::json::array();
      for (int b = 0; b < 4; ++b) {
        const bool slow = node == 2 && (a == 1 || b == 1);
        row.push_back(a == b ? nlohmann::json(nullptr) : nlohmann::json(slow ? 180.0 : 300.0 + a));
      }
      matrix.push_back(row);
    }
    nodes.push_back({{"node", node},
                     {"host", hosts[static_cast<std::size_t>(4 * node)]},
                     {"ranks", {4 * node, 4 * node + 1, 4 * node + 2, 4 * node + 3}},
                     {"matrix", matrix}});
  }
  r.extra["intra_matrices"] = nodes;
  ResultsFile f;
  f.records.push_back(r);
  const FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.outliers.size(), 6u); // GPU 1's three links out and three in
  for (const auto& o : report.outliers) {
    EXPECT_EQ(o.kind, FleetKind::link);
    EXPECT_EQ(o.fleet_size, 48u);
    EXPECT_TRUE(o.who.host == "n3" && o.to.host == "n3") << o.who.host << " " << o.to.host;
    EXPECT_TRUE(o.who.device == 1 || o.to.device == 1);
  }
  ASSERT_FALSE(report.suspects.empty());
  EXPECT_EQ(report.suspects[0].who.host, "n3");
  EXPECT_EQ(report.suspects[0].who.device, 1);

  // Healthy GPUs inside every node: nothing named.
  for (auto& node : f.records[0].extra["intra_matrices"])
    for (auto& row : node["matrix"])
      for (auto& v : row)
        if (v.is_number())
          v = 300.0;
  EXPECT_TRUE(analyze_fleet(f, FleetRules{}).outliers.empty());
}

TEST(Fleet, ASecondPassWithoutVerdictsNamesNothingButCountsAsJudged) {
  ResultsFile f;
  f.records.push_back(node_pair_record(nlohmann::json::array()));
  const FleetReport report = analyze_fleet(f, FleetRules{});
  EXPECT_TRUE(report.outliers.empty());
  EXPECT_EQ(report.fleets_examined, 1);
}

TEST(Fleet, ACollectivesPerRankFiguresNameNoGpuOrNodeTheStragglerRuleDoes) {
  // The emulated 4-node all_reduce whose cbnode3 link ran at a third of the others' rate: the
  // ranks' own busbw (GB/s) put cbnode4, which receives from cbnode3, at 0.66x and cbnode3 above
  // the rest. The same figures in a compute record name cbnode4, as they should there.
  const std::vector<double> busbw = {0.0249, 0.0254, 0.0345, 0.0165,
                                     0.0251, 0.0250, 0.0344, 0.0166};
  const std::vector<std::string> hosts = {"cbnode1", "cbnode2", "cbnode3", "cbnode4"};
  ResultsFile f;
  Record collective = test::gpu_record("collectives", "all_reduce", busbw, hosts);
  collective.straggler = StragglerRank{2, "cbnode3", 0, 1.0, 1.43e-3, 1.97e-3};
  f.records.push_back(collective);
  FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.outliers.size(), 1u);
  EXPECT_EQ(report.outliers[0].kind, FleetKind::straggler);
  EXPECT_EQ(report.outliers[0].who.host, "cbnode3");
  EXPECT_EQ(report.failing(), 0u);
  EXPECT_EQ(report.fleets_examined, 0);

  f.records[0] = test::gpu_record("compute", "copy", busbw, hosts);
  report = analyze_fleet(f, FleetRules{});
  std::set<std::string> named;
  for (const Outlier& o : report.outliers)
    named.insert(std::string(fleet_kind_name(o.kind)) + " " + o.who.host);
  EXPECT_EQ(named, (std::set<std::string>{"gpu cbnode4", "node cbnode4"}));
}

// With one visible GPU per rank every CUDA ordinal is 0: the straggler is named by nvidia-smi's
// index and bus id, from the record's straggler or, in a file from before it kept them, from the
// rank's own per_rank entry.
TEST(Fleet, AStragglerIsNamedByItsNvmlIndexAndBusId) {
  ResultsFile f;
  Record r = test::gpu_record("collectives", "all_reduce", std::vector<double>(8, 400.0),
                              {"n1", "n2"});
  for (std::size_t i = 0; i < r.per_rank.size(); ++i) {
    r.per_rank[i]["device"] = 0;
    r.per_rank[i]["nvml_index"] = static_cast<int>(i / 2);
    r.per_rank[i]["pci_bus_id"] = "0000:1" + std::to_string(i / 2) + ":00.0";
  }
  r.straggler = StragglerRank{5, "n2", 0, 0.92, 62e-6, 100e-6, 2, "0000:12:00.0"};
  f.records.push_back(r);
  Outlier o = analyze_fleet(f, FleetRules{}).outliers.at(0);
  EXPECT_EQ(o.who.device, 2);
  EXPECT_EQ(o.who.pci_bus_id, "0000:12:00.0");
  f.records[0].straggler = StragglerRank{5, "n2", 0, 0.92, 62e-6, 100e-6};
  o = analyze_fleet(f, FleetRules{}).outliers.at(0);
  EXPECT_EQ(o.who.device, 2); // rank 5's own entry
  EXPECT_EQ(o.who.pci_bus_id, "0000:12:00.0");
  EXPECT_EQ(o.who.uuid, "GPU-5");
}

TEST(Fleet, ACollectivesStragglerIsAnOutlierThatWarnsAndNamesNoSuspect) {
  ResultsFile f;
  // Eight ranks on two hosts at an even busbw: no GPU outlier; rank 5 (n2, GPU 1) named late.
  Record r = test::gpu_record("collectives", "all_reduce", std::vector<double>(8, 400.0),
                              {"n1", "n2", "n3", "n4"});
  r.straggler = StragglerRank{5, "n2", 1, 0.92, 62e-6, 100e-6};
  f.records.push_back(r);
  const FleetReport report = analyze_fleet(f, FleetRules{});
  ASSERT_EQ(report.outliers.size(), 1u);
  const Outlier& o = report.outliers[0];
  EXPECT_EQ(o.kind, FleetKind::straggler);
  EXPECT_EQ(fleet_kind_name(o.kind), "straggler");
  EXPECT_EQ(o.who.rank, 5);
  EXPECT_EQ(o.who.host, "n2");
  EXPECT_EQ(o.who.device, 1);
  EXPECT_EQ(o.who.uuid, "GPU-5"); // from its per_rank entry
  EXPECT_TRUE(o.by_straggler);
  EXPECT_TRUE(o.warns_only());
  EXPECT_EQ(o.metric, "time_us");
  EXPECT_DOUBLE_EQ(o.value, 62);
  EXPECT_DOUBLE_EQ(o.fleet_median, 100);
  EXPECT_DOUBLE_EQ(o.ratio, 0.62);
  EXPECT_DOUBLE_EQ(o.shortest_share, 0.92);
  EXPECT_EQ(o.fleet_size, 8u);
  EXPECT_EQ(report.failing(), 0u);
  EXPECT_EQ(report.warnings(), 1u);
  EXPECT_TRUE(report.suspects.empty());
  EXPECT_EQ(member_label(o.kind, o.who), "rank 5 on host n2 GPU 1 (GPU-5)");
  FleetMember no_where;
  no_where.rank = 2;
  EXPECT_EQ(member_label(FleetKind::straggler, no_where), "rank 2");
}
