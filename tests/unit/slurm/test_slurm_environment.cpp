#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/error.hpp"
#include "slurm/slurm_environment.hpp"

using namespace cb;

namespace {

EnvironmentLookup fake(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end())
      return std::nullopt;
    return it->second;
  };
}

std::string refusal(const EnvironmentLookup& environment) {
  try {
    read_slurm_allocation(environment);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

using Hosts = std::vector<std::string>;

} // namespace

TEST(SlurmStep, DetectsTasksOfAStep) {
  EXPECT_FALSE(running_under_slurm_step(fake({})));
  // What an sbatch script sees (Slurm 22.05): PROCID and NTASKS, but no step id.
  EXPECT_FALSE(running_under_slurm_step(
      fake({{"SLURM_JOB_ID", "7"}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}})));
  // What each srun task sees.
  EXPECT_TRUE(running_under_slurm_step(fake({{"SLURM_JOB_ID", "7"},
                                             {"SLURM_STEP_ID", "0"},
                                             {"SLURM_PROCID", "1"},
                                             {"SLURM_NTASKS", "2"}})));
  EXPECT_TRUE(running_under_slurm_step(
      fake({{"SLURM_STEPID", "3"}, {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}})));
  EXPECT_FALSE(running_under_slurm_step(fake({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "1"}})));
  EXPECT_FALSE(running_under_slurm_step(fake({{"SLURM_STEP_ID", "0"}, {"SLURM_NTASKS", "2"}})));
}

TEST(Hostlist, ExpandsRangesListsAndPadding) {
  EXPECT_EQ(expand_hostlist("node1", "V"), Hosts({"node1"}));
  EXPECT_EQ(expand_hostlist("gpu[01-03,7],login1", "V"),
            Hosts({"gpu01", "gpu02", "gpu03", "gpu7", "login1"}));
  EXPECT_EQ(expand_hostlist("n[8-11]", "V"), Hosts({"n8", "n9", "n10", "n11"}));
  EXPECT_EQ(expand_hostlist("n[098-100]-ib", "V"), Hosts({"n098-ib", "n099-ib", "n100-ib"}));
  EXPECT_EQ(expand_hostlist("r[1-2]n[1-2]", "V"), Hosts({"r1n1", "r1n2", "r2n1", "r2n2"}));
}

TEST(Hostlist, RefusesMalformedLists) {
  for (const char* bad :
       {"", "n[1-3", "n1-3]", "n[3-1]", "n[a-b]", "n[]", "a,,b", "n[[1]]", "n[1-99999999]"}) {
    try {
      expand_hostlist(bad, "SLURM_JOB_NODELIST");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("SLURM_JOB_NODELIST"), std::string::npos);
    }
  }
}

TEST(TasksPerNode, ExpandsRepeats) {
  EXPECT_EQ(expand_tasks_per_node("8", "V"), std::vector<int>({8}));
  EXPECT_EQ(expand_tasks_per_node("2(x3),1", "V"), std::vector<int>({2, 2, 2, 1}));
  for (const char* bad : {"", "x", "2(x)", "2(3)", "2(x3", ",1", "-1"}) {
    EXPECT_THROW(expand_tasks_per_node(bad, "V"), InputError) << bad;
  }
}

TEST(SlurmAllocation, ReadsAStepTask) {
  auto allocation = read_slurm_allocation(fake({{"SLURM_JOB_ID", "4242"},
                                                {"SLURM_JOB_NODELIST", "gpu[1-2]"},
                                                {"SLURM_NTASKS", "16"},
                                                {"SLURM_TASKS_PER_NODE", "8(x2)"},
                                                {"SLURM_GPUS_ON_NODE", "8"},
                                                {"SLURM_PROCID", "9"},
                                                {"SLURM_LOCALID", "1"},
                                                {"SLURM_NODEID", "1"}}));
  EXPECT_EQ(allocation.job_id, "4242");
  EXPECT_EQ(allocation.nodes, Hosts({"gpu1", "gpu2"}));
  EXPECT_EQ(allocation.ntasks, 16);
  EXPECT_EQ(allocation.tasks_per_node, std::vector<int>({8, 8}));
  EXPECT_EQ(allocation.gpus_per_node, 8);
  EXPECT_EQ(allocation.procid, 9);
  EXPECT_EQ(allocation.localid, 1);
  EXPECT_EQ(allocation.nodeid, 1);
}

TEST(SlurmAllocation, FallsBackToOlderNamesAndTypedGpuCounts) {
  auto allocation = read_slurm_allocation(fake({{"SLURM_JOBID", "5"},
                                                {"SLURM_NODELIST", "a,b,c"},
                                                {"SLURM_NPROCS", "3"},
                                                {"SLURM_GPUS_PER_NODE", "a100:2,v100:2"}}));
  EXPECT_EQ(allocation.job_id, "5");
  EXPECT_EQ(allocation.nodes, Hosts({"a", "b", "c"}));
  EXPECT_EQ(allocation.ntasks, 3);
  EXPECT_TRUE(allocation.tasks_per_node.empty());
  EXPECT_EQ(allocation.gpus_per_node, 4);
  EXPECT_FALSE(allocation.procid.has_value());
}

TEST(SlurmAllocation, RefusesMissingJobAndMalformedVariables) {
  EXPECT_NE(refusal(fake({})).find("SLURM_JOB_ID"), std::string::npos);
  EXPECT_NE(refusal(fake({{"SLURM_JOB_ID", "1"}})).find("SLURM_JOB_NODELIST"), std::string::npos);
  std::map<std::string, std::string> base = {{"SLURM_JOB_ID", "1"},
                                             {"SLURM_JOB_NODELIST", "n[1-2]"}};
  auto with = [&](const std::string& name, const std::string& value) {
    auto variables = base;
    variables[name] = value;
    return fake(variables);
  };
  EXPECT_NE(refusal(with("SLURM_NTASKS", "four")).find("SLURM_NTASKS"), std::string::npos);
  EXPECT_NE(refusal(with("SLURM_TASKS_PER_NODE", "4(x3)")).find("SLURM_TASKS_PER_NODE"),
            std::string::npos);
  EXPECT_NE(refusal(with("SLURM_GPUS_ON_NODE", "-1")).find("SLURM_GPUS_ON_NODE"),
            std::string::npos);
  EXPECT_NE(refusal(with("SLURM_GPUS_PER_NODE", "a100:x")).find("SLURM_GPUS_PER_NODE"),
            std::string::npos);
  EXPECT_NE(refusal(with("SLURM_PROCID", "")).find("SLURM_PROCID"), std::string::npos);
}
