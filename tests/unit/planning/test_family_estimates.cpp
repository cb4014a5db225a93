// Every registered case is planned by its family's estimate, never by the default: a case without
// one would make `plan` and `--budget` silently wrong.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "planning/hardware_model.hpp"
#include "planning/plan_text.hpp"
#include "planning/run_plan.hpp"
#include "planning/time_model.hpp"
#include "runtime/backend_registry.hpp"
#include "runtime/case.hpp"
#include "runtime/family.hpp"

using namespace cb;

namespace {

RunConfig config_for(const std::string& backend) {
  RunConfig c;
  c.backend = backend;
  c.backend_kind = backend_kind_named(backend); // as the launcher resolves it
  return c;
}

PlanTarget two_nodes_of_four() {
  PlanTarget t;
  t.nodes = 2;
  t.gpus_per_node = 4;
  t.counts = sweep_counts("auto", uniform_layout(t.nodes, t.gpus_per_node));
  return t;
}

} // namespace

TEST(FamilyEstimates, EveryRegisteredCaseHasItsFamily) {
  const auto cases = CaseRegistry::instance().create_all();
  ASSERT_GT(cases.size(), 20u);
  for (const auto& c : cases) {
    EXPECT_NE(FamilyRegistry::instance().find(c->suite()), nullptr)
        << c->suite() << "/" << c->name() << ": no family registered for its suite";
  }
}

TEST(FamilyEstimates, EveryRegisteredCaseIsPlannedByItsFamilyOnEveryBackend) {
  for (const std::string backend : {"host", "cuda"}) {
    // A build without a backend (the sanitizer build is host only) has no instances of its own
    // for it: the training step's shape comes from the backend's part.
    if (!BackendRegistry::instance().find(backend)) {
      std::cout << "(" << backend << " not compiled in: its instances are not planned here)\n";
      continue;
    }
    const RunConfig config = config_for(backend);
    const HardwareModel model = hardware_model_for(backend, "");
    int instances = 0;
    for (const auto& c : CaseRegistry::instance().create_all()) {
      for (const PhaseShape& shape :
           {PhaseShape{1, 1, 1}, PhaseShape{4, 1, 4}, PhaseShape{8, 2, 4}}) {
        for (const auto& params : c->instances(config)) {
          const auto op = c->operation_at(params, shape.ranks);
          const OperationEstimate e =
              estimate_operation(c->suite(), c->name(), op ? *op : params, shape, model);
          EXPECT_TRUE(e.from_family) << backend << " " << c->suite() << "/" << c->name() << " "
                                     << params.dump() << ": planned at the default estimate";
          EXPECT_GT(e.seconds, 0) << c->suite() << "/" << c->name() << " " << params.dump();
          ++instances;
        }
      }
    }
    EXPECT_GT(instances, 0) << backend;
  }
}

TEST(FamilyEstimates, TheWholePlanUsesNoDefault) {
  for (const std::string backend : {"host", "cuda"}) {
    const RunConfig config = config_for(backend);
    const RunPlan plan = make_plan(plan_cases_from_registry(config), config, two_nodes_of_four(),
                                   hardware_model_for(backend, ""), 0);
    EXPECT_TRUE(plan.default_estimates.empty())
        << backend << ": " << plan.default_estimates.front();
    for (const auto& phase : plan.phases) {
      for (const auto& pi : phase.instances)
        EXPECT_FALSE(pi.default_estimate) << phase.suite << "/" << phase.name;
    }
  }
}

TEST(FamilyEstimates, ACaseOfNoFamilyIsPlannedAtTheDefaultAndNamedLoudly) {
  PlanCase unknown;
  unknown.suite = "no_such_suite";
  unknown.name = "mystery";
  unknown.instances = {nlohmann::json{{"bytes", 1024}}};
  PlanCase unestimated = unknown;
  unestimated.suite = FamilyRegistry::instance().all().front()->suite();
  unestimated.name = "no_such_case";
  const RunConfig config = config_for("host");
  const RunPlan plan = make_plan({unknown, unestimated}, config, two_nodes_of_four(),
                                 hardware_model_for("host", ""), 0);
  ASSERT_EQ(plan.default_estimates.size(), 2u);
  EXPECT_EQ(plan.default_estimates[0], "no_such_suite/mystery");
  EXPECT_EQ(plan.default_estimates[1], unestimated.suite + "/no_such_case");
  ASSERT_FALSE(plan.phases.empty());
  EXPECT_TRUE(plan.phases.front().instances.front().default_estimate);
  EXPECT_DOUBLE_EQ(plan.phases.front().instances.front().op_s, kDefaultOperationSeconds);
  std::ostringstream text;
  print_plan(text, plan);
  EXPECT_NE(text.str().find("WARNING: no_such_suite/mystery has no estimate"), std::string::npos)
      << text.str();
  EXPECT_EQ(plan_to_json(plan)["default_estimates"].size(), 2u);
}

TEST(FamilyRegistry, OrdersTheSuitesAndPutsUnknownOnesLast) {
  const auto& families = FamilyRegistry::instance().all();
  ASSERT_EQ(families.size(), 5u);
  const std::vector<std::string> expected = {"compute", "links", "collectives", "storage",
                                             "workload"};
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(families[i]->suite(), expected[i]);
  EXPECT_LT(FamilyRegistry::instance().order_of("workload"),
            FamilyRegistry::instance().order_of("imported_suite"));
  EXPECT_EQ(FamilyRegistry::instance().find("imported_suite"), nullptr);
  // The case registry's order is the families'.
  int last = -1;
  for (const auto& c : CaseRegistry::instance().create_all()) {
    const int order = FamilyRegistry::instance().order_of(c->suite());
    EXPECT_GE(order, last) << c->suite() << "/" << c->name();
    last = order;
  }
}

namespace {

// One case of `suite`, one instance, planned on `target` with `config`'s engine settings.
RunPlan plan_one(const std::string& suite, const std::string& name, const nlohmann::json& params,
                 const RunConfig& config, const PlanTarget& target) {
  PlanCase c;
  c.suite = suite;
  c.name = name;
  c.instances = {params};
  c.family = FamilyRegistry::instance().find(suite);
  c.records_per_instance = 1;
  return make_plan({c}, config, target, hardware_model_for(config.backend, ""), 0);
}

PlanTarget counts(std::vector<int> gpus, int per_node) {
  PlanTarget t;
  t.nodes = 1;
  t.gpus_per_node = per_node;
  t.counts = std::move(gpus);
  return t;
}

} // namespace

TEST(FamilyEstimates, TheTrainingStepRunsItsWarmUpAndMinSamplesPastTheCap) {
  RunConfig config = config_for("host");
  config.measure.max_time_s = 0.2; // --quick's cap, shorter than one host step
  config.measure.min_time_s = 0.01;
  const nlohmann::json step{{"model_params", 16777216}, {"tokens_per_gpu", 256}};
  const HardwareModel model = hardware_model_for("host", "");
  const double op = operation_seconds("workload", "data_parallel_step", step, {1, 1, 1}, model);
  ASSERT_GT(op, config.measure.max_time_s);
  const RunPlan plan = plan_one("workload", "data_parallel_step", step, config, counts({1}, 1));
  ASSERT_EQ(plan.phases.size(), 1u);
  const PlannedInstance& pi = plan.phases[0].instances.at(0);
  // 2 warm-up steps, then min_samples (5) steps, the cap notwithstanding: 7 steps, not the
  // engine's 3 (warm-up, calibration, one sample at the cap).
  EXPECT_NEAR(pi.estimate_s, model.record_setup_s + 7 * op, 1e-9);
  EXPECT_EQ(pi.expect, "min_samples");
  EXPECT_GE(plan.worst_case_s, plan.total_s);
}

TEST(FamilyEstimates, LaunchBoundCollectivesConvergeInPartOnTheHost) {
  RunConfig config = config_for("host");
  config.measure.max_time_s = 0.2;
  config.measure.min_time_s = 0.01;
  const HardwareModel model = hardware_model_for("host", "");
  ASSERT_GT(model.collective_converge_share, 0);
  ASSERT_LT(model.collective_converge_share, 1);
  const nlohmann::json small{{"bytes", 8}};
  const RunPlan plan = plan_one("collectives", "all_reduce", small, config, counts({1, 2}, 2));
  ASSERT_EQ(plan.phases.size(), 2u);
  const PlannedInstance& lone = plan.phases[0].instances.at(0);
  const PlannedInstance& pair = plan.phases[1].instances.at(0);
  ASSERT_TRUE(lone.launch_bound);
  ASSERT_TRUE(pair.launch_bound);
  // One rank exchanges nothing: every record is planned to converge at once.
  const RecordEstimate converges = estimate_measurement(lone.op_s, 0, lone.measure, false);
  EXPECT_NEAR(lone.estimate_s, model.record_setup_s + converges.seconds, 1e-9);
  EXPECT_EQ(lone.expect, "converged");
  // Two ranks: the measured share converges, the others settle or reach the cap.
  const double share = model.collective_converge_share;
  const double sync = sync_seconds(PhaseShape{2, 1, 2}, model);
  const RecordEstimate at_once = estimate_measurement(pair.op_s, sync, pair.measure, false);
  const RecordEstimate settles = estimate_measurement(pair.op_s, sync, pair.measure, true);
  EXPECT_NEAR(pair.estimate_s,
              model.record_setup_s + share * at_once.seconds + (1 - share) * settles.seconds, 1e-9);
  EXPECT_EQ(pair.expect, "converged or cap");
  // communicator_init converges as the collectives do (MPI_Comm_split on the host).
  const RunPlan init = plan_one("collectives", "communicator_init", {}, config, counts({1}, 1));
  EXPECT_EQ(init.phases.at(0).instances.at(0).expect, "converged");
}

TEST(FamilyEstimates, NoLoneShareOnGpusUntilMeasured) {
  EXPECT_EQ(hardware_model_for("cuda", "").lone_collective_converge_share, 0);
  EXPECT_EQ(hardware_model_for("cuda", "").collective_converge_share, 0);
}
