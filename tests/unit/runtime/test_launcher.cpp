#include <gtest/gtest.h>
#include <sched.h>

#include <cstdlib>

#include "runtime/host_backend.hpp"
#include "runtime/launcher.hpp"

using namespace cb;

TEST(Launcher, BindsOneRankPerCoreWhenTheyFit) {
  const auto cmd = mpirun_command("mpirun", "/x/clusterbench", {"run", "--quick"}, 2, false, 2);
  EXPECT_EQ(command_line(cmd),
            "mpirun -np 2 --bind-to core --map-by core /x/clusterbench run --quick");
}

TEST(Launcher, OversubscribesOnlyWhenAskedForMoreRanksThanCores) {
  const auto cmd = mpirun_command("mpirun", "cb", {"run"}, 4, true, 2);
  EXPECT_EQ(command_line(cmd), "mpirun -np 4 --allow-run-as-root --oversubscribe cb run");
}

// GPU ranks: the node's cores shared out, consecutive ranks on one package first (golden).
// `--bind-to core --map-by core` put 8 GPU ranks on cores 0-7 of socket 0, one core each.
TEST(Launcher, GpuRanksGetTheNodesCoresPerGpu) {
  EXPECT_EQ(command_line(mpirun_command("mpirun", "/x/clusterbench", {"run"}, 8, false, 112, 8)),
            "mpirun -np 8 --map-by slot:PE=14 --bind-to core /x/clusterbench run");
  // A node whose cores do not divide: the remainder is left idle, never a rank over two packages
  // because of it.
  EXPECT_EQ(command_line(mpirun_command("mpirun", "cb", {"run"}, 8, true, 60, 8)),
            "mpirun -np 8 --allow-run-as-root --map-by slot:PE=7 --bind-to core cb run");
  // One GPU on a 2-core machine: both cores.
  EXPECT_EQ(command_line(mpirun_command("mpirun", "cb", {"run"}, 1, false, 2, 1)),
            "mpirun -np 1 --map-by slot:PE=2 --bind-to core cb run");
  // Over a hostfile, 16 ranks on nodes of 8 GPUs: a node's cores over its 8 ranks.
  EXPECT_EQ(command_line(mpirun_command("mpirun", "cb", {"run"}, 16, false, 64, 8)),
            "mpirun -np 16 --map-by slot:PE=8 --bind-to core cb run");
  // More GPU ranks on a node than cores: shared, as host ranks are.
  EXPECT_EQ(command_line(mpirun_command("mpirun", "cb", {"run"}, 4, false, 2, 4)),
            "mpirun -np 4 --oversubscribe cb run");
  EXPECT_EQ(cores_per_gpu_rank(112, 8), 14);
  EXPECT_EQ(cores_per_gpu_rank(4, 8), 1);
  EXPECT_EQ(cores_per_gpu_rank(4, 0), 4);
}

TEST(Launcher, RefusesMoreRanksOnANodeThanGpus) {
  EXPECT_EQ(too_many_ranks_for_devices(8, 8, "gpu-01"), "");
  EXPECT_EQ(too_many_ranks_for_devices(1, 4, "gpu-01"), "");
  EXPECT_EQ(too_many_ranks_for_devices(9, 8, "gpu-01"),
            "9 ranks on gpu-01 but only 8 GPUs visible there: the cuda backend drives one GPU per "
            "rank (lower --np, or the launcher's ranks per node, or widen CUDA_VISIBLE_DEVICES)");
  EXPECT_NE(too_many_ranks_for_devices(2, 1, "h").find("only 1 GPU visible"), std::string::npos);
}

TEST(Launcher, RefusesTwoRanksOnOneGpuButNotRanksThatSeeOnlyTheirOwn) {
  const std::vector<std::string> hosts{"a", "a", "b", "b"};
  const std::vector<int> nodes{0, 0, 1, 1};
  // srun --gpu-bind: every rank sees one GPU, index 0, but a different one.
  std::vector<nlohmann::json> devices{{{"index", 0}, {"uuid", "GPU-1"}},
                                      {{"index", 0}, {"uuid", "GPU-2"}},
                                      {{"index", 0}, {"uuid", "GPU-3"}},
                                      {{"index", 0}, {"uuid", "GPU-4"}}};
  EXPECT_EQ(ranks_sharing_a_gpu(nodes, hosts, devices), "");
  // The same UUID on two nodes is not sharing (it cannot happen, but is not one GPU).
  devices[2]["uuid"] = "GPU-1";
  EXPECT_EQ(ranks_sharing_a_gpu(nodes, hosts, devices), "");
  devices[3]["uuid"] = "GPU-1";
  EXPECT_EQ(ranks_sharing_a_gpu(nodes, hosts, devices),
            "ranks 2 and 3 on b would share GPU GPU-1: the cuda backend drives one GPU per rank "
            "(fewer ranks per node, or give each rank its own GPUs)");
  // Without a UUID, the PCI bus id tells them apart.
  EXPECT_NE(
      ranks_sharing_a_gpu({0, 0}, {"a", "a"},
                          {{{"pci_bus_id", "0000:19:00.0"}}, {{"pci_bus_id", "0000:19:00.0"}}}),
      "");
}

TEST(Launcher, QuotesForTheShell) {
  EXPECT_EQ(shell_quote("plain-word_1.json"), "plain-word_1.json");
  EXPECT_EQ(shell_quote("two words"), "'two words'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a;rm -rf /"), "'a;rm -rf /'");
}

TEST(Launcher, DetectsTheLaunchEnvironment) {
  for (const char* v :
       {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK", "SLURM_STEP_ID",
        "SLURM_STEPID", "SLURM_PROCID", "SLURM_NTASKS", "CLUSTERBENCH_LAUNCHED"}) {
    unsetenv(v);
  }
  EXPECT_EQ(detect_launch_mode(), LaunchMode::needs_launch);
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  EXPECT_EQ(detect_launch_mode(), LaunchMode::external_mpi);
  setenv("CLUSTERBENCH_LAUNCHED", "1", 1);
  EXPECT_EQ(detect_launch_mode(), LaunchMode::self_launched);
  unsetenv("OMPI_COMM_WORLD_SIZE");
  // Launched by us without mpirun (none on PATH): a single rank, never a second launch.
  EXPECT_EQ(detect_launch_mode(), LaunchMode::self_launched);
  unsetenv("CLUSTERBENCH_LAUNCHED");
  setenv("SLURM_STEP_ID", "0", 1);
  setenv("SLURM_PROCID", "0", 1);
  setenv("SLURM_NTASKS", "2", 1);
  // An srun task without an MPI plugin: refused by `run`, never a launch per task.
  EXPECT_EQ(detect_launch_mode(), LaunchMode::slurm_step_no_mpi);
  setenv("PMIX_RANK", "0", 1);
  EXPECT_EQ(detect_launch_mode(), LaunchMode::slurm_step);
  // The batch script: Slurm's variables but no step id, so clusterbench launches its ranks.
  unsetenv("SLURM_STEP_ID");
  unsetenv("PMIX_RANK");
  EXPECT_EQ(detect_launch_mode(), LaunchMode::needs_launch);
  for (const char* v : {"SLURM_PROCID", "SLURM_NTASKS"})
    unsetenv(v);
}

// The cores mpirun is asked for are those this process may run on, not the host's: in a
// container or a shared allocation /proc/cpuinfo lists every core, and hwloc sees only the
// allowed ones. Pinned to one CPU, the count is one core.
TEST(PhysicalCoreCount, CountsOnlyTheCpusThisProcessMayRunOn) {
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
  int first = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE && first < 0; ++cpu) {
    if (CPU_ISSET(cpu, &saved))
      first = cpu;
  }
  ASSERT_GE(first, 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const int pinned = cb::physical_core_count();
  ASSERT_EQ(sched_setaffinity(0, sizeof saved, &saved), 0);
  EXPECT_EQ(pinned, 1);
  EXPECT_GE(cb::physical_core_count(), 1);
  EXPECT_LE(cb::physical_core_count(), CPU_COUNT(&saved));
}
