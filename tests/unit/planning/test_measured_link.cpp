// The link rate a plan takes from an earlier results file (planning/measured_link.hpp): which
// record it reads, what it says about it, and every file it must refuse.
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "core/error.hpp"
#include "planning/measured_link.hpp"
#include "planning/plan_text.hpp"
#include "planning/run_plan.hpp"
#include "runtime/communicator.hpp"
#include "runtime/topology.hpp"

namespace cb {
namespace {

const std::string kFile = "earlier.json";

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/planning/" + name;
}

Record link_record(const std::string& name, double gbps, double bytes, int nodes,
                   const std::string& direction = "uni") {
  Record r;
  r.suite = "links";
  r.case_name = name;
  r.params = {{"bytes", bytes}};
  if (name == "pair_bw")
    r.params["direction"] = direction;
  r.gpus = nodes;
  r.nodes = nodes;
  r.tier = nodes > 1 ? "inter" : "intra";
  r.metrics = {{"gbps", gbps}};
  return r;
}

ResultsFile file_of(std::vector<Record> records, const std::string& backend = "host") {
  ResultsFile f;
  f.run = {{"backend", backend}};
  f.records = std::move(records);
  return f;
}

std::string refusal(const ResultsFile& f, const std::string& backend = "host") {
  try {
    measured_link_of(f, kFile, backend);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(MeasuredLink, TakesPairBwOneWayAtItsLargestSizeWithItsNodePairs) {
  Record small = link_record("pair_bw", 0.030, 1 << 20, 3);
  Record large = link_record("pair_bw", 0.0361, 8 << 20, 3);
  large.extra["matrix"] = {
      {nullptr, 0.0362, 0.0359}, {0.0361, nullptr, 0.0121}, {0.0358, 0.0363, nullptr}};
  Record both_ways = link_record("pair_bw", 0.072, 64 << 20, 3, "bi"); // a sum of two directions
  Record ring = link_record("ring_bw", 0.3, 64 << 20, 3);
  const PlanLink link = measured_link_of(file_of({small, large, both_ways, ring}), kFile, "host");
  EXPECT_DOUBLE_EQ(link.bytes_per_s, 0.0361e9);
  EXPECT_EQ(link.source,
            "measured in earlier.json: pair_bw median over 6 node pairs (8M, 3 nodes)");
}

TEST(MeasuredLink, AtOneSizeTakesTheMostRanks) {
  const PlanLink link = measured_link_of(
      file_of({link_record("pair_bw", 0.02, 8 << 20, 2), link_record("pair_bw", 0.04, 8 << 20, 6)}),
      kFile, "host");
  EXPECT_DOUBLE_EQ(link.bytes_per_s, 0.04e9);
  EXPECT_NE(link.source.find("its node pairs (8M, 6 nodes)"), std::string::npos) << link.source;
}

TEST(MeasuredLink, NoisyCountsSkippedAndFailedDoNot) {
  Record noisy = link_record("pair_bw", 0.05, 1 << 20, 2);
  noisy.status = RecordStatus::noisy;
  Record skipped = link_record("pair_bw", 9, 64 << 20, 2);
  skipped.status = RecordStatus::skipped;
  Record failed = link_record("pair_bw", 9, 64 << 20, 2);
  failed.status = RecordStatus::failed;
  EXPECT_DOUBLE_EQ(measured_link_of(file_of({skipped, noisy, failed}), kFile, "host").bytes_per_s,
                   0.05e9);
}

TEST(MeasuredLink, WithoutPairBwTakesTheRingPerRank) {
  Record ring4 = link_record("ring_bw", 0.12, 8 << 20, 4); // aggregate of 4 ranks
  Record ring2 = link_record("ring_bw", 0.07, 8 << 20, 2);
  const PlanLink link = measured_link_of(
      file_of({ring2, ring4, link_record("pair_bw", 0.07, 8 << 20, 3, "bi")}), kFile, "host");
  EXPECT_DOUBLE_EQ(link.bytes_per_s, 0.03e9);
  EXPECT_NE(link.source.find("ring_bw of 4 ranks on 4 nodes, aggregate / ranks"), std::string::npos)
      << link.source;
}

TEST(MeasuredLink, AFileWithNothingAcrossNodesIsRefusedNamingTheFileAndWhatItLacks) {
  Record inside = link_record("pair_bw", 7.5, 8 << 20, 1);
  Record all_reduce = link_record("pair_bw", 0.4, 8 << 20, 2);
  all_reduce.suite = "collectives";
  all_reduce.case_name = "all_reduce";
  Record inter_but_one_node = link_record("pair_bw", 0.04, 8 << 20, 2);
  inter_but_one_node.nodes = 1;
  for (const auto& f : {file_of({}), file_of({inside, all_reduce, inter_but_one_node}),
                        file_of({link_record("pair_bw", 0.07, 8 << 20, 3, "bi")})}) {
    const std::string why = refusal(f);
    EXPECT_EQ(why.rfind("earlier.json: no links/pair_bw (direction=uni) or links/ring_bw", 0), 0u)
        << why;
    EXPECT_NE(why.find("across nodes"), std::string::npos) << why;
  }
}

TEST(MeasuredLink, ImpossibleRatesAreRefusedNamingTheRecord) {
  for (const nlohmann::json& gbps : {nlohmann::json(0), nlohmann::json(-1.5), nlohmann::json(1e6),
                                     nlohmann::json("fast"), nlohmann::json(nullptr)}) {
    Record r = link_record("pair_bw", 1, 8 << 20, 2);
    r.metrics["gbps"] = gbps;
    const std::string why = refusal(file_of({link_record("pair_bw", 1, 8 << 20, 1), r}));
    EXPECT_EQ(why.rfind("earlier.json: records[1] (links/pair_bw", 0), 0u) << gbps << ": " << why;
  }
  Record no_metric = link_record("ring_bw", 1, 8 << 20, 2);
  no_metric.metrics = nlohmann::json::object();
  EXPECT_NE(refusal(file_of({no_metric})).find("has no metrics.gbps"), std::string::npos);
}

TEST(MeasuredLink, OddShapesElsewhereInTheRecordDoNotCrash) {
  Record r = link_record("pair_bw", 0.04, 8 << 20, 2);
  r.params["bytes"] = "8M";                       // not a number: no size said
  r.extra["matrix"] = {1, {nullptr, "x"}, "row"}; // not a matrix: no count said
  Record odd_direction = link_record("pair_bw", 5, 64 << 20, 2);
  odd_direction.params["direction"] = 7; // not "uni": not taken
  const PlanLink link = measured_link_of(file_of({odd_direction, r}), kFile, "host");
  EXPECT_DOUBLE_EQ(link.bytes_per_s, 0.04e9);
  EXPECT_NE(link.source.find("its node pairs (2 nodes)"), std::string::npos) << link.source;
}

TEST(MeasuredLink, AnotherBackendsRunIsRefused) {
  const std::string why = refusal(file_of({link_record("pair_bw", 40, 8 << 20, 2)}, "cuda"));
  EXPECT_EQ(why, "earlier.json: run.backend is cuda; a link measured by another backend does not "
                 "plan a host run");
}

TEST(PlanLinkFrom, TheFlagWinsAndSaysWhatItWonOver) {
  const PlanLink link = plan_link_from(12.5e6, "100mbit", fixture("links_3nodes.json"), "host");
  EXPECT_DOUBLE_EQ(link.bytes_per_s, 12.5e6);
  EXPECT_EQ(link.source.rfind("--plan-link 100mbit (given; wins over 0.0361 GB/s per rank "
                              "measured in ",
                              0),
            0u)
      << link.source;
}

TEST(PlanLinkFrom, TheFileThroughTheLoaderAndNothingWithoutEither) {
  const PlanLink link = plan_link_from(0, "", fixture("links_3nodes.json"), "host");
  EXPECT_DOUBLE_EQ(link.bytes_per_s, 0.0361e9);
  EXPECT_NE(link.source.find("pair_bw median over 6 node pairs (8M, 3 nodes)"), std::string::npos);
  const PlanLink none = plan_link_from(0, "", "", "host");
  EXPECT_EQ(none.bytes_per_s, 0);
  EXPECT_EQ(none.source, "");
  EXPECT_THROW(plan_link_from(0, "", fixture("no_such_file.json"), "host"), InputError);
  // The flag given too: the file is still read, and a bad one still refused.
  EXPECT_THROW(plan_link_from(1e9, "8gbit", fixture("intra_only.json"), "host"), InputError);
}

// A real run's file: `ci/plan-vs-measured --emulated 6` (6 network namespaces, one rank each,
// egress shaped to 100 Mbit/s = 0.0125 GB/s), its pair_bw one way noisy on a loaded 2-core host.
TEST(PlanLinkFrom, ARealRunOfSixEmulatedNodesAt100Mbit) {
  const PlanLink link = plan_link_from(0, "", fixture("emulated_6nodes_100mbit.json"), "host");
  EXPECT_NEAR(link.bytes_per_s, 0.011926e9, 0.000001e9);
  EXPECT_NE(link.source.find("pair_bw median over 30 node pairs (8M, 6 nodes)"), std::string::npos)
      << link.source;
}

TEST(PlanLinkFrom, ThePlanSaysItsLinkAndWhereItCameFrom) {
  const HardwareModel assumed = hardware_model_for("host", "");
  EXPECT_EQ(assumed.link_source.rfind("assumed: ", 0), 0u) << assumed.link_source;
  EXPECT_EQ(hardware_model_for("cuda", "").link_source.rfind("assumed: ", 0), 0u);
  const HardwareModel flag = hardware_model_for("host", "", 12.5e6);
  EXPECT_EQ(flag.link_source, "--plan-link");
  const HardwareModel measured = hardware_model_for("host", "", 36.1e6, "measured in X: ...");
  EXPECT_DOUBLE_EQ(measured.inter_bw, 36.1e6);
  RunPlan plan;
  plan.model = measured;
  EXPECT_EQ(plan_link_line(plan), "# link between nodes: 0.0361 GB/s per rank, measured in X: ...");
  const nlohmann::json j = plan_to_json(plan);
  EXPECT_EQ(j.at("model").at("link").at("source"), "measured in X: ...");
  EXPECT_DOUBLE_EQ(j.at("model").at("link").at("bytes_per_s").get<double>(), 36.1e6);
}

// Runs body on n thread ranks of one fresh world.
void on_threads(int n, const std::function<void(const Communicator&)>& body) {
  std::vector<Communicator> world = Communicator::threads(n);
  std::vector<std::jthread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] { body(world[static_cast<std::size_t>(r)]); });
}

TEST(SharePlanLink, EveryRankGetsRankZerosReadingOrItsRefusal) {
  std::vector<RunConfig> configs(3);
  on_threads(3, [&](const Communicator& c) {
    RunConfig& config = configs[static_cast<std::size_t>(c.rank())];
    // Only rank 0 can read it: the others were given a path that does not exist.
    config.plan_from = c.rank() == 0 ? fixture("links_3nodes.json") : "/nonexistent/file.json";
    share_plan_link(c, config, "host");
  });
  for (const auto& config : configs) {
    EXPECT_DOUBLE_EQ(config.plan_link_bps, 0.0361e9);
    EXPECT_NE(config.plan_link_source.find("pair_bw median over 6 node pairs"), std::string::npos);
  }
  std::vector<std::string> refusals(3);
  on_threads(3, [&](const Communicator& c) {
    RunConfig config;
    config.plan_from = fixture("intra_only.json");
    try {
      share_plan_link(c, config, "host");
    } catch (const InputError& e) {
      refusals[static_cast<std::size_t>(c.rank())] = e.what();
    }
  });
  for (const auto& why : refusals)
    EXPECT_NE(why.find("intra_only.json: no links/pair_bw"), std::string::npos) << why;
}

// When run measures the link itself before its sweep: only a job whose largest count spans nodes,
// with a suite whose plan crosses them, and neither flag.
TEST(LinkCalibrationWanted, OnlyAcrossNodesForSuitesThatCrossThemWithNeitherFlag) {
  RunConfig config;
  const NodeLayout two_nodes = make_layout({0, 0, 2, 2}, {"a", "a", "b", "b"});
  const NodeLayout one_node = make_layout({0, 0}, {"a", "a"});
  EXPECT_TRUE(wants_link_calibration(config, two_nodes, {1, 2, 4}, {"compute", "collectives"}));
  EXPECT_TRUE(wants_link_calibration(config, two_nodes, {4}, {"links"}));
  EXPECT_TRUE(wants_link_calibration(config, two_nodes, {4}, {"workload"}));
  // Nothing crosses the network: compute and storage run on each GPU or node alone.
  EXPECT_FALSE(wants_link_calibration(config, two_nodes, {1, 2, 4}, {"compute", "storage"}));
  // The sweep's counts all stay within the first node.
  EXPECT_FALSE(wants_link_calibration(config, two_nodes, {1, 2}, {"collectives"}));
  EXPECT_FALSE(wants_link_calibration(config, one_node, {1, 2}, {"collectives"}));
  EXPECT_FALSE(wants_link_calibration(config, two_nodes, {}, {"collectives"}));
  // Either flag gives the rate: nothing to measure.
  RunConfig given = config;
  given.plan_link_bps = 12.5e6;
  given.plan_link_source = "--plan-link 100mbit";
  EXPECT_FALSE(wants_link_calibration(given, two_nodes, {4}, {"links"}));
  RunConfig from = config;
  from.plan_from = "earlier.json";
  EXPECT_FALSE(wants_link_calibration(from, two_nodes, {4}, {"links"}));
}

// A calibration that could not measure leaves the model's figure, and the plan says both.
TEST(LinkCalibrationWanted, AFailedCalibrationKeepsTheModelsRateAndSaysWhy) {
  const HardwareModel m =
      hardware_model_for("host", "", 0,
                         "not calibrated (6 wrong words received in its transfers "
                         "between nodes)");
  EXPECT_EQ(m.inter_bw, host_hardware_model().inter_bw);
  EXPECT_EQ(m.link_source, host_hardware_model().link_source +
                               "; not calibrated (6 wrong words received in its transfers "
                               "between nodes)");
}

} // namespace
} // namespace cb
