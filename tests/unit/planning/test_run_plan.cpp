#include <gtest/gtest.h>

#include "core/error.hpp"
#include "diagnosis/fabric_model.hpp"
#include "diagnosis/schedules.hpp"
#include "links/links_options.hpp"
#include "planning/plan_text.hpp"
#include "planning/run_plan.hpp"
#include "planning/screen_cost.hpp"

#include <cmath>

using namespace cb;

namespace {

RunConfig cuda_config() {
  RunConfig c;
  c.backend_kind = BackendKind::cuda;
  return c;
}

// The round-robin rounds across nodes at any size (the default screens from 16 nodes).
RunConfig rounds_config() {
  RunConfig c = cuda_config();
  kPairs.set(c, std::string("rounds"));
  return c;
}

PlanTarget cluster(int nodes, int per_node) {
  PlanTarget t;
  t.nodes = nodes;
  t.gpus_per_node = per_node;
  t.counts = sweep_counts("auto", uniform_layout(nodes, per_node));
  return t;
}

RunPlan default_plan(int nodes, const RunConfig& config = cuda_config()) {
  return make_plan(plan_cases_from_registry(config), config, cluster(nodes, 8),
                   hardware_model_for("cuda", ""), 0);
}

} // namespace

TEST(RunPlan, DefaultProfileFits128NodesIn15MinutesWith127Rounds) {
  const RunPlan plan = default_plan(128, rounds_config());
  EXPECT_LE(plan.total_s, 15 * 60);
  EXPECT_EQ(plan.inter_pair_rounds, 127);
  EXPECT_EQ(plan.intra_pair_rounds, 7);
  EXPECT_GT(plan.total_s, 60); // a real sweep, not an empty plan
}

TEST(RunPlan, TotalGrowsNoFasterThanTheNodeCount) {
  double previous = 0;
  for (int nodes : {16, 32, 64, 128}) {
    const double total = default_plan(nodes).total_s;
    if (previous > 0) {
      EXPECT_LE(total / previous, 2.0) << nodes << " nodes";
    }
    previous = total;
  }
  EXPECT_LE(default_plan(128).total_s / default_plan(16).total_s, 8.0);
}

TEST(RunPlan, FullSweepAtOneNodeAndTheJobThinnedInBetween) {
  const RunConfig config = rounds_config();
  const RunPlan plan = default_plan(16, config);
  // float and sum by default: one instance per message size, 8 B to 64 MiB by 2.
  const std::size_t all = 24;
  const Phase* node = plan.find("collectives", "all_reduce", 8);
  const Phase* job = plan.find("collectives", "all_reduce", 128);
  const Phase* between = plan.find("collectives", "all_reduce", 32);
  const Phase* within = plan.find("collectives", "all_reduce", 4);
  ASSERT_TRUE(node && job && between && within);
  EXPECT_EQ(node->instances.size(), all);
  EXPECT_EQ(job->instances.size(), all);
  EXPECT_EQ(within->instances.size(), all);
  EXPECT_TRUE(between->thinned);
  // Every 16x apart (every 4th at step 2) and the largest: 8 B ... 8 MiB, 64 MiB.
  EXPECT_EQ(between->instances.size(), 7u);
  EXPECT_EQ(between->instances.back().params.value("bytes", 0ull), 64ull << 20);
  // Pair tests once, at the whole job, in rounds.
  const Phase* pairs = plan.find("links", "pair_bw", 128);
  ASSERT_TRUE(pairs);
  EXPECT_EQ(pairs->pair_rounds, 3 * (15 + 7)); // uni twice, bi once
  EXPECT_EQ(plan.find("links", "pair_bw", 64), nullptr);
}

TEST(RunPlan, SizesThatRoundToOneOperationAreTimedOnce) {
  // At 1,024 nodes x 8 all_gather's sizes up to one float per rank (8 B .. 32 KiB) are all the
  // operation of 32 KiB: the sweep times it once (as the first, 8 B) and skips the others, and
  // the plan counts them as records of no time. all_reduce has no per-rank rounding.
  const RunPlan plan = default_plan(1024);
  const Phase* gather = plan.find("collectives", "all_gather", 8192);
  const Phase* reduce = plan.find("collectives", "all_reduce", 8192);
  ASSERT_TRUE(gather && reduce);
  ASSERT_EQ(gather->instances.size(), reduce->instances.size());
  int repeats = 0;
  for (const PlannedInstance& pi : gather->instances) {
    if (pi.repeats) {
      ++repeats;
      EXPECT_EQ(pi.estimate_s, 0) << pi.params.dump();
      EXPECT_GT(pi.params.value("bytes", 0ull), 8u) << pi.params.dump();
      EXPECT_LE(pi.params.value("bytes", 0ull), 32ull << 10) << pi.params.dump();
    }
  }
  EXPECT_EQ(repeats, 12); // 16 B .. 32 KiB, by 2
  EXPECT_EQ(gather->records, reduce->records) << "a skipped size is still a record";
  for (const PlannedInstance& pi : reduce->instances)
    EXPECT_FALSE(pi.repeats) << pi.params.dump();
  EXPECT_LT(gather->estimate_s, 0.75 * reduce->estimate_s);
  // At one node, 8 B, 16 B and 32 B are one float per rank.
  repeats = 0;
  for (const PlannedInstance& pi : plan.find("collectives", "all_gather", 8)->instances)
    repeats += pi.repeats ? 1 : 0;
  EXPECT_EQ(repeats, 2);
}

TEST(RunPlan, RepeatedAxisValuesOfOtherCasesAreEachPlannedAsTheSweepMeasuresThem) {
  // `--axis gemm.n=8192,8192` measures 8192 twice: only the collectives skip repeats.
  PlanCase gemm;
  gemm.suite = "compute";
  gemm.name = "gemm";
  gemm.instances = {{{"n", 8192}}, {{"n", 8192}}};
  const RunConfig config = cuda_config();
  const RunPlan plan = make_plan({gemm}, config, cluster(1, 8), hardware_model_for("cuda", ""), 0);
  const Phase* one = plan.find("compute", "gemm", 1);
  ASSERT_TRUE(one);
  ASSERT_EQ(one->instances.size(), 2u);
  EXPECT_FALSE(one->instances[1].repeats);
  EXPECT_GT(one->instances[1].estimate_s, 0);
  EXPECT_DOUBLE_EQ(one->instances[1].estimate_s, one->instances[0].estimate_s);
}

TEST(RunPlan, EveryRecordEstimateIsBoundedByItsCap) {
  const RunPlan plan = default_plan(16);
  for (const auto& phase : plan.phases) {
    if (phase.pair_rounds > 0)
      continue;
    for (const auto& pi : phase.instances)
      EXPECT_LE(pi.measure.min_time_s, pi.measure.max_time_s);
    EXPECT_LE(phase.estimate_s, phase.worst_case_s + 1e-9) << phase.suite << "/" << phase.name;
  }
}

TEST(RunPlan, BudgetPicksTheFirstLevelThatFits) {
  const RunConfig config = cuda_config();
  const auto cases = plan_cases_from_registry(config);
  const PlanTarget target = cluster(16, 8);
  const HardwareModel model = hardware_model_for("cuda", "");
  const RunPlan base = make_plan(cases, config, target, model, 0);
  // A budget the default meets keeps it.
  EXPECT_EQ(plan_to_budget(cases, config, target, model, base.total_s + 1).level, 0);
  // Tighter: a later level, each one cheaper than the one before.
  double previous = base.total_s;
  for (int level = 1; level <= kMaxPlanLevel; ++level) {
    const double total = make_plan(cases, config, target, model, level).total_s;
    EXPECT_LE(total, previous) << "level " << level;
    previous = total;
  }
  const RunPlan fitted = plan_to_budget(cases, config, target, model, previous + 1);
  EXPECT_LE(fitted.total_s, previous + 1);
  EXPECT_GT(fitted.level, 0);
  // The full sweep at one node and at the job survives every level.
  const RunPlan smallest = make_plan(cases, config, target, model, kMaxPlanLevel);
  EXPECT_EQ(smallest.find("collectives", "all_reduce", 8)->instances.size(),
            24u);
  EXPECT_EQ(smallest.find("collectives", "all_reduce", 128)->instances.size(),
            24u);
}

// Without a budget, a job of kThinBelowNodeFrom nodes or more thins the counts below one node
// (they run on one node while the others wait); smaller jobs keep the full sweep; a budget the
// full sweep fits keeps it at any size.
TEST(RunPlan, DefaultLevelThinsTheCountsBelowOneNodeFrom16Nodes) {
  const RunConfig config = cuda_config();
  const auto cases = plan_cases_from_registry(config);
  const HardwareModel model = hardware_model_for("cuda", "");
  const RunPlan small = plan_to_budget(cases, config, cluster(kThinBelowNodeFrom - 1, 8), model, 0);
  EXPECT_EQ(small.level, 0);
  EXPECT_FALSE(small.level_by_size);
  EXPECT_EQ(small.find("collectives", "all_reduce", 2)->instances.size(), 24u);

  const PlanTarget big = cluster(kThinBelowNodeFrom, 8);
  const RunPlan by_size = plan_to_budget(cases, config, big, model, 0);
  EXPECT_EQ(by_size.level, 1);
  EXPECT_TRUE(by_size.level_by_size);
  EXPECT_LT(by_size.find("collectives", "all_reduce", 2)->instances.size(), 24u);
  EXPECT_EQ(by_size.find("collectives", "all_reduce", 8)->instances.size(), 24u);
  EXPECT_NE(by_size.level_description().find("default from 16 nodes"), std::string::npos)
      << by_size.level_description();

  const RunPlan full = make_plan(cases, config, big, model, 0);
  const RunPlan budgeted = plan_to_budget(cases, config, big, model, full.total_s + 1);
  EXPECT_EQ(budgeted.level, 0);
  EXPECT_FALSE(budgeted.level_by_size);
  EXPECT_LT(by_size.total_s, full.total_s);
}

TEST(RunPlan, BudgetBelowTheSmallestPlanIsRefusedWithTheSmallestFeasible) {
  const RunConfig config = cuda_config();
  const auto cases = plan_cases_from_registry(config);
  const PlanTarget target = cluster(16, 8);
  const HardwareModel model = hardware_model_for("cuda", "");
  try {
    plan_to_budget(cases, config, target, model, 10);
    FAIL() << "a 10 s budget was accepted";
  } catch (const InputError& e) {
    const std::string text = e.what();
    EXPECT_EQ(text.rfind("--budget: ", 0), 0u) << text;
    const double smallest = make_plan(cases, config, target, model, kMaxPlanLevel).total_s;
    EXPECT_NE(text.find(std::to_string(static_cast<long long>(std::ceil(smallest))) + " s"),
              std::string::npos)
        << text;
  }
}

TEST(RunPlan, JsonHasPhasesTotalAndPairRounds) {
  const RunPlan plan = default_plan(16, rounds_config());
  std::vector<double> measured(plan.phases.size(), -1.0);
  measured[0] = 2 * plan.phases[0].estimate_s;
  const nlohmann::json j = plan_to_json(plan, measured);
  EXPECT_EQ(j.at("phases").size(), plan.phases.size());
  EXPECT_DOUBLE_EQ(j.at("total_s").get<double>(), plan.total_s);
  EXPECT_EQ(j.at("pair_rounds").get<int>(), 15);
  EXPECT_NEAR(j["phases"][0]["measured_over_planned"].get<double>(), 2.0, 1e-9);
  EXPECT_FALSE(j["phases"][1].contains("measured_s"));
}

namespace {

// The links suite's pair phases on `nodes` nodes of one rank each, host backend, --quick, in
// round-robin rounds.
RunPlan host_links_plan(int nodes) {
  RunConfig config;
  kPairs.set(config, std::string("rounds"));
  config.backend_kind = BackendKind::host;
  config.quick = true;
  config.measure = quick_measure_settings();
  config.suites = {"links"};
  PlanTarget t;
  t.nodes = nodes;
  t.gpus_per_node = 1;
  t.counts = {nodes};
  return make_plan(plan_cases_from_registry(config), config, t,
                   hardware_model_for("host", "", 100e6 / 8), 0);
}

} // namespace

TEST(RunPlan, PingPongRoundsAreCountedAsTheBackendMeasuresThem) {
  // The host starts each ping-pong from both ends (two sub-rounds a round), cuda once per pair.
  const RunPlan host_plan = host_links_plan(6);
  const Phase* host = host_plan.find("links", "pair_latency", 6);
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->pair_rounds, 2 * 5);
  const RunPlan cuda_plan = default_plan(16, rounds_config());
  const Phase* cuda = cuda_plan.find("links", "pair_latency", 128);
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->pair_rounds, 15 + 7);
}

TEST(RunPlan, HostPingPongsArePlannedWithTheLatencyBatchAndTheirSampleCost) {
  // The host's ping-pong samples average 10 ms of round trips and cost 15 ms more each (6 ranks
  // polling on 2 cores); the cuda plan keeps the run's batch time.
  const RunPlan host_plan = host_links_plan(6);
  const Phase* host = host_plan.find("links", "pair_latency", 6);
  ASSERT_NE(host, nullptr);
  ASSERT_EQ(host->instances.size(), 1u);
  EXPECT_DOUBLE_EQ(host->instances[0].measure.batch_time_s, kLatencyBatchS);
  // 10 sub-rounds of 5 to 7 samples of ~30 ms each: about 2 s (measured 1.65-2.06 s in 10 runs).
  EXPECT_GT(host->estimate_s, 1.5);
  EXPECT_LT(host->estimate_s, 2.5);
  const RunPlan cuda_plan = default_plan(16, rounds_config());
  const Phase* cuda = cuda_plan.find("links", "pair_latency", 128);
  ASSERT_NE(cuda, nullptr);
  EXPECT_LT(cuda->instances[0].measure.batch_time_s, kLatencyBatchS);
}

TEST(RunPlan, BothWaysAcrossHostNodesSharesTheConnection) {
  // MPI over one TCP connection moves the two directions one after the other: a both-ways round
  // takes as long as the two one-way sub-rounds of a round together.
  const RunPlan plan = host_links_plan(6);
  const Phase* p = plan.find("links", "pair_bw", 6);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->instances.size(), 2u);
  double uni = 0, bi = 0;
  for (const auto& pi : p->instances)
    (pi.params.value("direction", "") == "uni" ? uni : bi) = pi.op_s;
  ASSERT_GT(uni, 0) << p->instances[0].params.dump();
  EXPECT_NEAR(bi / uni, 2.0, 0.01);
}

TEST(RunPlan, TheSecondPassIsBoundedInTheWorstCaseNotInTheEstimate) {
  const RunPlan plan = host_links_plan(6);
  const Phase* p = plan.find("links", "pair_bw", 6);
  ASSERT_NE(p, nullptr);
  EXPECT_GT(p->second_pass_max_s, 0);
  EXPECT_GE(p->worst_case_s, p->estimate_s + p->second_pass_max_s);
  EXPECT_EQ(plan_to_json(plan).at("second_pass_max_s").get<double>(), plan.second_pass_max_s);
  // Within one node there is no second pass.
  const RunPlan one = host_links_plan(1);
  EXPECT_EQ(one.second_pass_max_s, 0);
  // At 1,024 nodes the bound is the same number of rounds: it does not grow with the fleet.
  const double small = plan.second_pass_max_s;
  EXPECT_NEAR(host_links_plan(1024).second_pass_max_s / small, 1.0, 0.05);
}

// The screen's rounds the plan prices are run_screen's own against a healthy fleet of the fabric
// model (noiseless, 8 rails), at the sizes a user plans for; and its sub-rounds (what the pair
// tests measure) are two or three a round.
TEST(ScreenCost, RoundsAreRunScreensOnAHealthyFabricModel) {
  for (int nodes : {128, 1024, 8192}) {
    Scenario healthy;
    healthy.nodes = nodes;
    healthy.gpus_per_node = 8;
    healthy.leaf_nodes = 32;
    FabricModel fabric(healthy);
    const Measurements m = run_screen(fabric, sqrt_groups(nodes), ScreenSettings{});
    std::string groups;
    const ScreenCost cost = healthy_screen_cost(planned_screen_groups(nodes, "", groups));
    EXPECT_EQ(cost.rounds, m.rounds) << nodes;
    EXPECT_EQ(cost.tests, m.tests) << nodes;
    EXPECT_EQ(groups, "sqrt");
    EXPECT_GE(cost.sub_rounds, 2 * cost.rounds) << nodes;
    EXPECT_LE(cost.sub_rounds, 3 * cost.rounds) << nodes;
  }
}

namespace {

double pair_seconds(const RunPlan& plan) {
  double s = 0;
  for (const auto& p : plan.phases) {
    if (p.suite == "links" && (p.name == "pair_bw" || p.name == "pair_latency"))
      s += p.estimate_s;
  }
  return s;
}

} // namespace

// The default from 16 nodes: the screen; 1,024 nodes of 8 GPUs price the pair tests in a minute
// and a half at most (the rounds: 15 minutes), and the pair phase grows at most as log(nodes).
TEST(RunPlan, ScreenPricesThePairTestsLogarithmically) {
  const RunPlan at_1024 = default_plan(1024);
  EXPECT_GT(at_1024.screen_rounds, 0);
  EXPECT_EQ(at_1024.screen_groups, "sqrt");
  EXPECT_LE(pair_seconds(at_1024), 90);
  EXPECT_GT(pair_seconds(at_1024), 1); // measured, not left out
  EXPECT_GT(pair_seconds(default_plan(1024, rounds_config())), 10 * pair_seconds(at_1024));
  const double at_128 = pair_seconds(default_plan(128));
  const double at_8192 = pair_seconds(default_plan(8192));
  EXPECT_LE(at_8192, at_128 * std::log2(8192.0) / std::log2(128.0)) << at_128 << " " << at_8192;
  // Below 16 nodes the rounds, every node pair.
  EXPECT_EQ(default_plan(8).screen_rounds, 0);
  EXPECT_EQ(plan_to_json(at_1024).at("pairs"), "screen");
  EXPECT_EQ(plan_to_json(at_1024).at("screen").at("rounds"), at_1024.screen_rounds);
}

// A collective is measured in place and out of place, a record each; communicator_init, of the
// same family, makes one record a count (planned twice, it cost 70 s too many at 1,024 x 8).
TEST(RunPlan, CommunicatorInitIsOneRecordACount) {
  const RunPlan plan = default_plan(16);
  const Phase* init = plan.find("collectives", "communicator_init", 128);
  const Phase* reduce = plan.find("collectives", "all_reduce", 128);
  ASSERT_NE(init, nullptr);
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(init->records, 1);
  EXPECT_EQ(reduce->records % 2, 0) << "in place and out of place";
}

namespace {

// The host's --quick plan of some suites on `nodes` x `per_node`, at `counts`.
RunPlan host_quick_plan(const std::vector<std::string>& suites, int nodes, int per_node,
                        const std::vector<int>& counts, int level = 0) {
  RunConfig config;
  config.backend_kind = BackendKind::host;
  config.quick = true;
  config.measure = quick_measure_settings();
  config.suites = suites;
  PlanTarget t;
  t.nodes = nodes;
  t.gpus_per_node = per_node;
  t.counts = counts;
  return make_plan(plan_cases_from_registry(config), config, t, host_hardware_model(), level);
}

} // namespace

TEST(RunPlan, QuickRecordsGetAWindowOrAShortCap) {
  // A record either converged after ~5 samples or ran 4-15x longer to the settle check or the
  // cap, by chance; --quick gives a launch-bound record a cap 2.5x its converging time, and the
  // others a fixed window: each phase a time the plan can state.
  const RunPlan plan = host_quick_plan({"collectives", "links", "compute"}, 1, 2, {2});
  const Phase* reduce = plan.find("collectives", "all_reduce", 2);
  ASSERT_NE(reduce, nullptr);
  ASSERT_GT(reduce->instances.size(), 5u);
  for (const auto& pi : reduce->instances) { // the quick sizes are all launch-bound on the host
    EXPECT_TRUE(pi.launch_bound) << pi.params.dump();
    EXPECT_TRUE(pi.measure.stop_early);
    EXPECT_DOUBLE_EQ(pi.measure.min_time_s, 0.01);
    EXPECT_DOUBLE_EQ(pi.measure.max_time_s, 0.03);
  }
  // Longer operations: a window of 0.1 s, at least min_samples, never past the cap.
  const Phase* gemm = plan.find("compute", "gemm", 2);
  ASSERT_NE(gemm, nullptr);
  for (const auto& pi : gemm->instances) {
    EXPECT_FALSE(pi.launch_bound) << pi.params.dump();
    EXPECT_FALSE(pi.measure.stop_early);
    EXPECT_DOUBLE_EQ(pi.measure.min_time_s, 0.1);
    EXPECT_DOUBLE_EQ(pi.measure.max_time_s, 0.2);
  }
  // communicator_init, one record a phase, samples for the window instead.
  const Phase* init = plan.find("collectives", "communicator_init", 2);
  ASSERT_NE(init, nullptr);
  EXPECT_FALSE(init->instances.at(0).measure.stop_early);
  EXPECT_DOUBLE_EQ(init->instances.at(0).measure.min_time_s, 0.03);
  EXPECT_EQ(init->instances.at(0).expect, "window");
  // The pair tests' rounds keep the run's early stop: the diagnosis reads their samples.
  const Phase* latency = plan.find("links", "pair_latency", 2);
  ASSERT_NE(latency, nullptr);
  EXPECT_TRUE(latency->instances.at(0).measure.stop_early);
  // Level 4 halves the window as it halves the other times.
  const RunPlan short_plan = host_quick_plan({"collectives"}, 1, 2, {2}, 4);
  const Phase* short_reduce = short_plan.find("collectives", "all_reduce", 2);
  ASSERT_NE(short_reduce, nullptr);
  EXPECT_DOUBLE_EQ(short_reduce->instances.at(0).measure.max_time_s, 0.015);
  EXPECT_DOUBLE_EQ(short_reduce->instances.at(0).measure.min_time_s, 0.005);
  // The default profile keeps its early stop.
  EXPECT_TRUE(default_plan(2).find("collectives", "all_reduce", 8)->instances.at(0).measure.stop_early);
}

TEST(RunPlan, APhaseOnTheNodesOfItsCasesPreviousPhaseReusesItsMemory) {
  // checkpoint_stage on two ranks of one node right after one rank: the node's memory was freed
  // a moment before (HardwareModel::checkpoint_fill_reused_bw).
  const HardwareModel m = host_hardware_model();
  const RunPlan after_one = host_quick_plan({"storage"}, 1, 2, {1, 2});
  const RunPlan alone = host_quick_plan({"storage"}, 1, 2, {2});
  const Phase* reused = after_one.find("storage", "checkpoint_stage", 2);
  const Phase* fresh = alone.find("storage", "checkpoint_stage", 2);
  ASSERT_NE(reused, nullptr);
  ASSERT_NE(fresh, nullptr);
  const double shard = reused->instances.at(0).params.at("checkpoint_bytes").get<double>() / 2;
  EXPECT_NEAR(fresh->estimate_s - reused->estimate_s,
              3 * shard * (1 / m.checkpoint_fill_bw - 1 / m.checkpoint_fill_reused_bw), 1e-9);
  // On two nodes the second node sat idle in the one-rank phase: nothing is reused.
  const RunPlan two_nodes = host_quick_plan({"storage"}, 2, 1, {1, 2});
  const Phase* spread = two_nodes.find("storage", "checkpoint_stage", 2);
  ASSERT_NE(spread, nullptr);
  EXPECT_NEAR(
      spread->estimate_s,
      host_quick_plan({"storage"}, 2, 1, {2}).find("storage", "checkpoint_stage", 2)->estimate_s,
      1e-9);
}
