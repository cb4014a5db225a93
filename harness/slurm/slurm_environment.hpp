#pragma once
// What a Slurm job's environment says: whether this process is a task of a job step (started by
// srun, so `clusterbench run` must not launch ranks itself) and what the allocation holds.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/environment.hpp" // EnvironmentLookup, running_under_slurm_step

namespace cb {

struct SlurmAllocation {
  std::string job_id;              // SLURM_JOB_ID
  std::vector<std::string> nodes;  // SLURM_JOB_NODELIST (or SLURM_NODELIST), expanded
  int ntasks = 0;                  // SLURM_NTASKS (or SLURM_NPROCS); 0 when unset
  std::vector<int> tasks_per_node; // SLURM_TASKS_PER_NODE expanded, one entry per node
  int gpus_per_node = 0;           // SLURM_GPUS_ON_NODE, else SLURM_GPUS_PER_NODE, else 0
  std::optional<int> procid;       // SLURM_PROCID: this task's rank in the step
  std::optional<int> localid;      // SLURM_LOCALID: its rank on its node
  std::optional<int> nodeid;       // SLURM_NODEID: its node's index in `nodes`
};

// Throws InputError naming the variable when there is no job (SLURM_JOB_ID unset) or a variable
// is malformed.
SlurmAllocation read_slurm_allocation(const EnvironmentLookup& environment);
SlurmAllocation read_slurm_allocation();

// Slurm's host list notation: "gpu[01-03,7],login1" -> gpu01 gpu02 gpu03 gpu7 login1. Zero
// padding is kept; several bracket groups in one name expand to every combination. `variable`
// names the source in errors.
std::vector<std::string> expand_hostlist(std::string_view list, std::string_view variable);
// The same notation read from a file or a flag: errors are "WHERE='LIST': why", so `where` names
// the file, line and field ("topology.conf line 3: Nodes"). More than `max_hosts` names is
// refused before they are built, so a caller can hold a budget across many lists.
std::vector<std::string> expand_hostlist_in(std::string_view list, std::string_view where,
                                            std::size_t max_hosts = 1'000'000);

// SLURM_TASKS_PER_NODE notation: "2(x3),1" -> 2 2 2 1.
std::vector<int> expand_tasks_per_node(std::string_view text, std::string_view variable);

} // namespace cb
