// The pair tests' rounds and second pass driven with ranks that are threads (no MPI), through the
// same code a host run uses (LinksCase::run_pair_test): 256 ranks on 256 one-rank "nodes" run
// 255 rounds in which every pair meets once and partners agree; with one node slowed, the record's
// second pass names that node alone. The transfer is a stand-in whose seconds follow the slower
// end's rate: this tests the schedule and the naming, not a link.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "links/links_case.hpp"
#include "links/links_options.hpp"
#include "links/pair_progress.hpp"
#include "links/pair_screen.hpp"
#include "runtime/host_backend.hpp"
#include "runtime/second_pass_limit.hpp"
#include "temp_dir.hpp"

namespace cb {
namespace {

class RoundsUnderTest : public LinksCase {
public:
  using LinksCase::measure_rounds;
  using LinksCase::PairProbe;
  using LinksCase::PairTimes;
  using LinksCase::run_pair_test;
  RoundsUnderTest() : LinksCase("rounds_under_test") {}
  std::vector<nlohmann::json> instances(const RunConfig&) const override { return {}; }
  void run(CaseRun&, const nlohmann::json&) override {}
};

struct Outcome {
  Record record;                                     // rank 0's
  std::vector<std::vector<std::pair<int, int>>> log; // per rank: (round, partner) it timed
};

// n thread ranks, `per_node` to a node; rate[i] is rank i's GB/s, a pair moves at the slower
// end's. rails: node pairs meet rail by rail (local rank i with local rank i).
// wobble: each rank's successive samples run at 1 - w, 1, 1 + w times its pair's time, a spread
// that never meets the cv target but settles.
Outcome run_on_threads(int n, const std::vector<double>& rate, const std::string& pairs = "rounds",
                       int per_node = 1, bool rails = false, double wobble = 0,
                       const std::string& topology = "", const std::string& not_judged = "") {
  std::vector<Communicator> worlds = Communicator::threads(n);
  std::vector<int> node_keys;
  std::vector<std::string> hosts;
  for (int r = 0; r < n; ++r) {
    node_keys.push_back(r / per_node);
    hosts.push_back("n" + std::to_string(r / per_node + 1));
  }
  const NodeLayout layout = make_layout(node_keys, hosts);
  const std::vector<nlohmann::json> devices(static_cast<std::size_t>(n), {{"index", 0}});
  RunConfig config;
  config.backend_kind = BackendKind::host;
  // "" as the command line has it: the flag not given.
  if (!pairs.empty())
    kPairs.set(config, pairs);
  if (!topology.empty())
    kTopology.set(config, topology);
  // Stand-in figures are exact: the fewest samples the engine takes, no minimum time.
  config.measure.min_samples = 3;
  config.measure.min_time_s = 0;
  config.measure.warmup_batches = 1;
  std::vector<int> members(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    members[static_cast<std::size_t>(r)] = r;
  Outcome out;
  out.log.resize(static_cast<std::size_t>(n));
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < n; ++r) {
      threads.emplace_back([&, r] {
        HostBackend backend(0);
        const CaseContext ctx{
            backend, worlds[static_cast<std::size_t>(r)], config, layout, members, Placement{n, 1},
            devices};
        int round = -1;
        long long calls = 0;
        RoundsUnderTest::PairProbe probe;
        probe.before = [&] { ++round; };
        probe.timed = [&](std::pair<int, int> p, int k) {
          const int partner = p.first == r ? p.second : p.first;
          auto& mine = out.log[static_cast<std::size_t>(r)];
          if (mine.empty() || mine.back() != std::pair{round, partner})
            mine.emplace_back(round, partner);
          const double gbps = std::min(rate[static_cast<std::size_t>(p.first)],
                                       rate[static_cast<std::size_t>(p.second)]);
          const double factor = 1.0 + wobble * static_cast<double>(calls++ % 3 - 1);
          return k * factor / gbps; // 1 GB per operation
        };
        probe.check = [](std::pair<int, int>) { return 0LL; };
        probe.not_judged_across_nodes = not_judged;
        Record made;
        made.suite = "links";
        made.case_name = "rounds_under_test";
        made.params = {{"direction", "bi"}};
        CaseRun state(ctx, made);
        RoundsUnderTest::run_pair_test(
            state, probe, [](double s) { return 1.0 / s; }, "gbps", rails);
        if (r == 0)
          out.record = state.record();
      });
    }
  }
  return out;
}

// With rails rank 0 keeps one entry per node pair of a (sub-)round, its slowest rail's: 2 nodes
// of 2 ranks, rank 3 at a fifth of the others' rate, a directed round of rails (0,2) and (1,3).
TEST(PairRoundsOnThreads, RailsKeepEachNodePairOnceByItsSlowestRail) {
  const int n = 4;
  std::vector<Communicator> worlds = Communicator::threads(n);
  const NodeLayout layout = make_layout({0, 0, 1, 1}, {"n1", "n1", "n2", "n2"});
  const std::vector<nlohmann::json> devices(static_cast<std::size_t>(n), {{"index", 0}});
  RunConfig config;
  config.backend_kind = BackendKind::host;
  config.measure.min_samples = 3;
  config.measure.min_time_s = 0;
  config.measure.warmup_batches = 1;
  const std::vector<int> members = {0, 1, 2, 3};
  const std::vector<double> rate = {10, 10, 10, 2};
  std::map<bool, RoundsUnderTest::PairTimes> kept; // by whether unit_of was given
  for (const bool by_node : {false, true}) {
    std::vector<std::jthread> threads;
    for (int r = 0; r < n; ++r) {
      threads.emplace_back([&, r] {
        HostBackend backend(0);
        const CaseContext ctx{
            backend, worlds[static_cast<std::size_t>(r)], config, layout, members, Placement{2, 2},
            devices};
        RoundsUnderTest::PairProbe probe;
        probe.before = [] {};
        probe.timed = [&](std::pair<int, int> p, int k) {
          return k / std::min(rate[static_cast<std::size_t>(p.first)],
                              rate[static_cast<std::size_t>(p.second)]);
        };
        probe.check = [](std::pair<int, int>) { return 0LL; };
        probe.directed = true;
        std::function<int(int)> unit_of;
        if (by_node)
          unit_of = [](int rank) { return rank / 2; };
        const auto t = RoundsUnderTest::measure_rounds(
            ctx, 1,
            [](int) {
              return std::vector<std::pair<int, int>>{{0, 2}, {1, 3}};
            },
            probe, {}, unit_of);
        if (r == 0)
          kept[by_node] = t;
      });
    }
  }
  EXPECT_EQ(kept[false].pairs.size(), 4u); // every rail of both directions
  const auto& t = kept[true];
  ASSERT_EQ(t.pairs.size(), 2u); // the node pair once per direction
  EXPECT_EQ(t.pairs[0], (std::pair<int, int>{1, 3}));
  EXPECT_EQ(t.pairs[1], (std::pair<int, int>{3, 1}));
  EXPECT_EQ(t.round_of, (std::vector<int>{0, 0}));
  for (double s : t.median_s)
    EXPECT_NEAR(s, 0.5, 1e-9); // 1 GB at 2 GB/s
}

TEST(PairRoundsOnThreads, TwoHundredFiftySixRanksMeetEveryPartnerOnceIn255Rounds) {
  const int n = 256;
  const Outcome out = run_on_threads(n, std::vector<double>(n, 10.0));
  const auto& x = out.record.extra;
  EXPECT_EQ(x["schedule"], "rounds");
  EXPECT_EQ(x["rounds_by_tier"]["inter"], n - 1);
  ASSERT_EQ(x["pair_rounds"].size(), static_cast<std::size_t>(n * (n - 1) / 2));
  // Every rank met each other rank once, in the round its partner says, and once per round.
  for (int r = 0; r < n; ++r) {
    const auto& mine = out.log[static_cast<std::size_t>(r)];
    ASSERT_EQ(mine.size(), static_cast<std::size_t>(n - 1)) << r;
    std::set<int> partners, rounds;
    for (const auto& [round, partner] : mine) {
      EXPECT_TRUE(partners.insert(partner).second) << r;
      EXPECT_TRUE(rounds.insert(round).second) << r;
      const auto& theirs = out.log[static_cast<std::size_t>(partner)];
      EXPECT_NE(std::find(theirs.begin(), theirs.end(), std::pair{round, r}), theirs.end());
    }
  }
  EXPECT_TRUE(x["second_pass"]["verdicts"].empty());
  EXPECT_EQ(out.record.metrics["gbps"], 10.0);
  // 32,640 pairs: the statistics are of all, the samples kept at most 16,384 of them.
  EXPECT_EQ(x["pairs"], 32640);
  EXPECT_EQ(out.record.stats.count, 32640u);
  EXPECT_EQ(out.record.samples_s.size(), 16384u);
  EXPECT_NE(x["samples_note"].get<std::string>().find("16384 evenly spaced order statistics"),
            std::string::npos);
}

TEST(PairRoundsOnThreads, OneSlowNodeIsNamedByHostAmong6_16And64) {
  for (int n : {6, 16, 64}) {
    std::vector<double> rate(static_cast<std::size_t>(n), 12.0);
    rate[3] = 4.0;
    const Outcome out = run_on_threads(n, rate);
    const auto& pass = out.record.extra["second_pass"];
    ASSERT_EQ(pass["verdicts"].size(), 1u) << n << " " << pass.dump();
    EXPECT_EQ(pass["verdicts"][0]["kind"], "node");
    EXPECT_EQ(pass["verdicts"][0]["host"], "n4");
    EXPECT_EQ(pass["suspect_pairs"].size(), static_cast<std::size_t>(n - 1));
    EXPECT_DOUBLE_EQ(pass["reference"].get<double>(), 12.0);
    // What the second pass cost: the slow node against its two good partners, a round each (its
    // partners are good, never named, so not retested; the node explains its pairs, so no pair
    // is retested). Both ways at once: one measurement per round.
    EXPECT_EQ(pass["retest_rounds"].get<int>(), 2) << n;
    EXPECT_EQ(pass["beyond_cap"]["end_retests"], 0) << n;
    EXPECT_EQ(pass["pair_retests"].size(), 0u) << n;
  }
}

// A probe whose figures across nodes are not judged (pair_bw both ways on the host backend): the
// slow node's pairs are measured and kept, but no second pass runs and nothing is named.
TEST(PairRoundsOnThreads, PairsNotJudgedAcrossNodesAreMeasuredAndNameNothing) {
  const int n = 6;
  std::vector<double> rate(n, 12.0);
  rate[3] = 4.0;
  const Outcome out = run_on_threads(n, rate, "rounds", 1, false, 0, "", "the reason");
  const auto& x = out.record.extra;
  ASSERT_EQ(x.at("matrix").size(), static_cast<std::size_t>(n));
  EXPECT_DOUBLE_EQ(x["matrix"][3][0].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(x["matrix"][1][0].get<double>(), 12.0);
  const auto& pass = x.at("second_pass");
  EXPECT_EQ(pass.at("judged"), false);
  EXPECT_EQ(pass.at("why"), "the reason");
  EXPECT_EQ(pass.at("verdicts"), nlohmann::json::array());
  EXPECT_FALSE(pass.contains("end_retests"));
  // The first pass's n - 1 rounds and no retest round: no rank timed a round after them.
  for (int r = 0; r < n; ++r) {
    const auto& log = out.log[static_cast<std::size_t>(r)];
    ASSERT_EQ(log.size(), static_cast<std::size_t>(n - 1)) << r;
    EXPECT_EQ(log.back().first, n - 2) << r;
  }
}

TEST(PairRoundsOnThreads, FiveSlowNodesOf17AreNamedAndASlowMajorityIsSaid) {
  // 5 of 17 slow: 70 of the 136 pairs are slow, yet the five are named, by host, and nothing else.
  std::vector<double> rate(17, 12.0);
  for (int slow : {1, 4, 8, 11, 15})
    rate[static_cast<std::size_t>(slow)] = 4.0;
  Outcome out = run_on_threads(17, rate);
  const auto& pass = out.record.extra["second_pass"];
  std::set<std::string> named;
  for (const auto& v : pass["verdicts"]) {
    EXPECT_EQ(v["kind"], "node") << v.dump();
    named.insert(v.value("host", ""));
  }
  EXPECT_EQ(named, (std::set<std::string>{"n2", "n5", "n9", "n12", "n16"})) << pass.dump();
  EXPECT_DOUBLE_EQ(pass["reference"].get<double>(), 12.0);
  EXPECT_EQ(pass["better_than_reference"]["pairs"], 0);

  // 10 of 17 slow: no node stands out of a slow typical pair, but the 21 pairs among the 7
  // healthy nodes beat it, and the record lists those nodes' hosts.
  std::fill(rate.begin(), rate.end(), 4.0);
  for (int healthy : {0, 3, 6, 9, 12, 14, 16})
    rate[static_cast<std::size_t>(healthy)] = 12.0;
  out = run_on_threads(17, rate);
  const auto& majority = out.record.extra["second_pass"];
  EXPECT_TRUE(majority["verdicts"].empty()) << majority.dump();
  EXPECT_EQ(majority["better_than_reference"]["pairs"], 21);
  EXPECT_EQ(majority["better_than_reference"]["hosts"],
            nlohmann::json({"n1", "n4", "n7", "n10", "n13", "n15", "n17"}));
}

TEST(PairRoundsOnThreads, RoundsWhoseSpreadSettlesAboveTheTargetAreSettledNotCapped) {
  const Outcome out = run_on_threads(4, std::vector<double>(4, 12.0), "rounds", 1, false, 0.3);
  const Record& r = out.record;
  const auto& sub = r.extra["sub_rounds"];
  EXPECT_EQ(r.status, RecordStatus::noisy);
  EXPECT_EQ(sub["capped"], 0) << sub.dump();
  EXPECT_EQ(sub["settled"], sub["measured"]) << sub.dump();
  EXPECT_EQ(r.extra.value("stop", ""), "settled");
  EXPECT_NE(r.reason.find("measured rounds settled above the"), std::string::npos) << r.reason;
  EXPECT_EQ(r.reason.find("time cap above"), std::string::npos) << r.reason;
  // Steady figures converge: neither.
  const Outcome steady = run_on_threads(4, std::vector<double>(4, 12.0));
  EXPECT_EQ(steady.record.extra["sub_rounds"]["settled"], 0);
  EXPECT_EQ(steady.record.extra["sub_rounds"]["capped"], 0);
  EXPECT_FALSE(steady.record.extra.contains("stop"));
}

TEST(PairRoundsOnThreads, RailsNameTheNodeAndTheGpuOfItsSlowRail) {
  // 6 nodes of 2 ranks; rank 7 (node n4, local rank 1) is slow: only rail 1 of n4's node pairs.
  std::vector<double> rate(12, 12.0);
  rate[7] = 4.0;
  const Outcome out = run_on_threads(12, rate, "rounds", 2, true);
  const auto& x = out.record.extra;
  EXPECT_EQ(x["rounds_by_tier"]["inter"], 5);
  EXPECT_EQ(x["rounds_by_tier"]["intra"], 1);
  // A node pair is kept once (by its first ranks) in the rounds and the samples: 6 pairs within
  // the nodes, 15 node pairs, not 30 rank pairs.
  ASSERT_EQ(x["pair_rounds"].size(), 21u);
  for (std::size_t i = 6; i < 21; ++i) {
    EXPECT_EQ(x["pair_rounds"][i][0].get<int>() % 2, 0) << x["pair_rounds"][i].dump();
    EXPECT_EQ(x["pair_rounds"][i][1].get<int>() % 2, 0) << x["pair_rounds"][i].dump();
  }
  EXPECT_EQ(out.record.samples_s.size(), 21u);
  EXPECT_EQ(x["pairs"], 21);
  EXPECT_EQ(x["matrix"].size(), 6u);
  ASSERT_EQ(x["intra_matrices"].size(), 6u);
  const auto& pass = x["second_pass"];
  ASSERT_EQ(pass["verdicts"].size(), 1u) << pass.dump();
  EXPECT_EQ(pass["verdicts"][0]["host"], "n4");
  EXPECT_EQ(pass["verdicts"][0]["rail"], 1);
  // Node n4's pairs are its slowest rail's figure; the others run at 12.
  EXPECT_DOUBLE_EQ(x["matrix"][3][0].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(x["matrix"][0][1].get<double>(), 12.0);
  // Each GPU's own figure counts every rail it ran, not only the slowest rail of each node pair:
  // rank 6, n4's healthy rail, ran 5 node pairs at 12 and its own node's pair at 4.
  const auto& ranks = out.record.per_rank;
  ASSERT_EQ(ranks.size(), 12u);
  EXPECT_DOUBLE_EQ(ranks[6]["gbps"].get<double>(), 12.0) << ranks[6].dump();
  EXPECT_DOUBLE_EQ(ranks[7]["gbps"].get<double>(), 4.0) << ranks[7].dump();
  EXPECT_DOUBLE_EQ(ranks[1]["gbps"].get<double>(), 12.0) << ranks[1].dump();
}

TEST(PairRoundsOnThreads, SequentialMeasuresOnePairPerRound) {
  const Outcome out = run_on_threads(5, std::vector<double>(5, 10.0), "sequential");
  EXPECT_EQ(out.record.extra["schedule"], "sequential");
  EXPECT_EQ(out.record.extra["rounds_by_tier"]["inter"], 10);
  EXPECT_EQ(out.record.extra["directed"], false); // one measurement per round, not two
  for (const auto& mine : out.log)
    EXPECT_EQ(mine.size(), 4u);
}

} // namespace
} // namespace cb

namespace cb {
namespace {

// Every node's distinct partners in the screen's observations (either end).
std::map<int, std::set<int>> screen_partners(const nlohmann::json& obs) {
  std::map<int, std::set<int>> partners;
  for (std::size_t i = 0; i < obs.at("src").size(); ++i) {
    const int a = obs["src"][i], b = obs["dst"][i];
    partners[a].insert(b);
    partners[b].insert(a);
  }
  return partners;
}

void expect_screen_record(const Record& record, int nodes, int rails) {
  const auto& x = record.extra;
  EXPECT_EQ(x.at("schedule"), "screen");
  EXPECT_FALSE(x.contains("matrix"));
  EXPECT_FALSE(x.contains("second_pass"));
  EXPECT_EQ(x.at("matrix_of"), "nodes");
  EXPECT_EQ(x.at("matrix_members").size(), static_cast<std::size_t>(nodes));
  const auto& obs = x.at("observations");
  const std::size_t count = obs.at("src").size();
  EXPECT_GT(count, 0u);
  for (const char* column : {"dst", "rail", "round", "value"})
    EXPECT_EQ(obs.at(column).size(), count) << column;
  std::set<int> rails_seen;
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_NE(obs["src"][i], obs["dst"][i]);
    EXPECT_GT(obs["value"][i].get<double>(), 0);
    rails_seen.insert(obs["rail"][i].get<int>());
  }
  EXPECT_EQ(rails_seen.size(), static_cast<std::size_t>(rails));
  const auto& s = x.at("screen");
  EXPECT_EQ(s.at("group_of_node").size(), static_cast<std::size_t>(nodes));
  EXPECT_EQ(s.at("k_inside"), 4);
  EXPECT_EQ(s.at("k_across"), 2);
  EXPECT_EQ(s.at("k_confirm"), 2);
  EXPECT_GT(s.at("tests").get<long long>(), 0);
  // Rounds are numbered 0 .. rounds - 1.
  int last = 0;
  for (const auto& r : obs.at("round"))
    last = std::max(last, r.get<int>());
  EXPECT_EQ(last + 1, s.at("rounds").get<int>());
  const int k = std::min(4, nodes / static_cast<int>(s.at("group_names").size()) - 1);
  const auto partners = screen_partners(obs);
  EXPECT_EQ(partners.size(), static_cast<std::size_t>(nodes));
  for (const auto& [node, with] : partners)
    EXPECT_GE(with.size(), static_cast<std::size_t>(k)) << "node " << node;
  EXPECT_EQ(record.check, DataCheck::pass);
}

} // namespace

// 20 one-rank nodes: the default screens (ceil(sqrt(20)) = 5 nodes a group, four groups), six
// rounds on a healthy fleet, the contract's fields.
TEST(PairScreenOnThreads, HealthyFleetScreensInSixRoundsWithTheContractsFields) {
  const int n = 20;
  const Outcome out = run_on_threads(n, std::vector<double>(n, 10.0), "");
  const auto& s = out.record.extra.at("screen");
  EXPECT_EQ(s.at("groups"), "sqrt");
  EXPECT_EQ(s.at("group_names"), nlohmann::json({"group0", "group1", "group2", "group3"}));
  EXPECT_EQ(s.at("rounds"), 6);
  expect_screen_record(out.record, n, 1);
  // Every rank followed the same schedule: a partner's log holds the same rounds as its own.
  for (int r = 0; r < n; ++r) {
    for (const auto& [round, partner] : out.log[static_cast<std::size_t>(r)]) {
      const auto& theirs = out.log[static_cast<std::size_t>(partner)];
      EXPECT_NE(std::find(theirs.begin(), theirs.end(), std::pair{round, r}), theirs.end());
    }
  }
}

// The screen only judges: a probe not judged across nodes is skipped with the reason, before any
// rank has measured anything.
TEST(PairScreenOnThreads, PairsNotJudgedAcrossNodesAreNotScreened) {
  const int n = 20;
  const Outcome out = run_on_threads(n, std::vector<double>(n, 10.0), "", 1, false, 0, "", "why");
  EXPECT_EQ(out.record.status, RecordStatus::skipped);
  EXPECT_NE(out.record.reason.find("not judged across nodes: why"), std::string::npos)
      << out.record.reason;
  for (const auto& log : out.log)
    EXPECT_TRUE(log.empty());
}

// One slow node: the screen confirms it (more rounds than a healthy fleet's, the same on every
// rank or the threads would wait forever), and its figures are the slowest.
TEST(PairScreenOnThreads, SlowNodeAddsConfirmationRounds) {
  const int n = 20;
  std::vector<double> rate(n, 10.0);
  rate[7] = 2.0;
  const Outcome out = run_on_threads(n, rate, "screen");
  expect_screen_record(out.record, n, 1);
  EXPECT_GT(out.record.extra.at("screen").at("rounds").get<int>(), 6);
  const auto& obs = out.record.extra.at("observations");
  double slowest = 1e300;
  std::set<int> ends;
  for (std::size_t i = 0; i < obs.at("value").size(); ++i)
    slowest = std::min(slowest, obs["value"][i].get<double>());
  for (std::size_t i = 0; i < obs.at("value").size(); ++i) {
    if (obs["value"][i].get<double>() < 1.5 * slowest) {
      EXPECT_TRUE(obs["src"][i] == 7 || obs["dst"][i] == 7);
    }
  }
}

// Two ranks a node with rails: every rail of a node pair at once, both rails in the observations;
// an explicit --pairs rounds still runs the rounds on the same fleet.
TEST(PairScreenOnThreads, RailsAreObservedOneByOne) {
  const int nodes = 8;
  const Outcome out =
      run_on_threads(2 * nodes, std::vector<double>(2 * nodes, 10.0), "screen", 2, true);
  expect_screen_record(out.record, nodes, 2);
  const Outcome rounds =
      run_on_threads(2 * nodes, std::vector<double>(2 * nodes, 10.0), "rounds", 2, true);
  EXPECT_EQ(rounds.record.extra.at("schedule"), "rounds");
  EXPECT_TRUE(rounds.record.extra.contains("matrix"));
  EXPECT_FALSE(rounds.record.extra.contains("observations"));
}

// --topology: the screen groups by leaf, read by rank 0 alone and told to the others (every rank
// must hold the same groups or the threads would wait forever).
TEST(PairScreenOnThreads, TopologyGroupsByLeafAsRankZeroReadIt) {
  const int n = 18;
  test::TempDir dir;
  std::string map = "{";
  for (int h = 1; h <= n; ++h)
    map += (h > 1 ? ", " : "") + ("\"n" + std::to_string(h) + "\": ") +
           (h <= 12 ? "\"leafA\"" : "\"leafB\"");
  test::write_text(dir.path() / "topology.json", map + "}\n");
  const Outcome out = run_on_threads(n, std::vector<double>(n, 10.0), "screen", 1, false, 0,
                                     (dir.path() / "topology.json").string());
  const auto& s = out.record.extra.at("screen");
  EXPECT_EQ(s.at("groups"), "topology");
  EXPECT_EQ(s.at("group_names"), nlohmann::json({"leafA", "leafB"}));
  for (int node = 0; node < n; ++node)
    EXPECT_EQ(s.at("group_of_node")[static_cast<std::size_t>(node)], node < 12 ? 0 : 1);
  expect_screen_record(out.record, n, 1);
}

// run_screen's figures flow by flow, rail by rail; the other way where only it was measured, and
// 0 (failed, never healthy) where nothing was.
TEST(PairScreen, FlowRatesLayout) {
  const std::vector<Flow> flows = {{0, 1}, {1, 2}};
  const std::vector<ScreenFigure> measured = {
      {0, 1, 0, 50, 5}, {0, 1, 1, 60, 6}, {2, 1, 0, 70, 7}};
  EXPECT_EQ(flow_rates(flows, 2, measured), (std::vector<double>{5, 6, 7, 0}));
  ScreenColumns columns;
  columns.add(measured[0], 0, 0.1);
  columns.add(measured[2], 3, 0.2);
  const auto j = columns.to_json();
  EXPECT_EQ(j.at("src"), nlohmann::json({0, 2}));
  EXPECT_EQ(j.at("dst"), nlohmann::json({1, 1}));
  EXPECT_EQ(j.at("rail"), nlohmann::json({0, 0}));
  EXPECT_EQ(j.at("round"), nlohmann::json({0, 3}));
  EXPECT_EQ(j.at("value"), nlohmann::json({50.0, 70.0}));
  EXPECT_TRUE(j.at("layout").is_string());
}

} // namespace cb

namespace cb {

// A run cut short inside the screen says so, without a list it cannot know (the screen picks each
// round from the last); cut short within the nodes, that the screen had not started.
TEST(PairScreen, AStoppedScreenSaysWhereItStopped) {
  test::TempDir dir;
  const std::string results = dir.str() + "/r.json";
  {
    PairProgress progress(results, "links/pair_bw", "screen", {"a", "b", "c"});
    progress.at("screen", 2, 3);
    const std::string line = describe_unfinished_pairs(results);
    EXPECT_NE(line.find("links/pair_bw stopped in screen round 3"), std::string::npos) << line;
    EXPECT_EQ(line.find("second pass"), std::string::npos) << line;
    progress.at("intra", 0, 7);
    const std::string within = describe_unfinished_pairs(results);
    EXPECT_NE(within.find("the screen across nodes had not started"), std::string::npos)
        << within;
    progress.finished();
  }
  EXPECT_EQ(describe_unfinished_pairs(results), "");
}

} // namespace cb
