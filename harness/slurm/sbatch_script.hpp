#pragma once
// The batch script `clusterbench slurm` prints: #SBATCH directives for N nodes with one task per
// GPU, then one srun that starts `clusterbench run` on every task, each task bound to one GPU of
// its own near its CPUs (--gpu-bind=single:1) and given the node's CPUs per GPU. Every value that
// reaches the script is either checked against what Slurm allows or single-quoted, so no flag can
// inject a command.
#include <string>
#include <vector>

namespace cb {

struct SbatchRequest {
  int nodes = 0;
  // Tasks per node: one per GPU, or one per CPU "device" with the host backend.
  int gpus_per_node = 0;
  // A CPU cluster: no --gpus-per-node, no --gpu-bind, and `--backend host` for the run.
  bool host_backend = false;
  // CPUs per task; 0: one CPU for a host rank, the node's CPUs shared out over its GPUs for a
  // GPU task (worked out in the script from SLURM_CPUS_ON_NODE: NCCL's proxy thread, the loader
  // threads and the event polling each need a core, near the GPU).
  int cpus_per_task = 0;
  std::string partition;  // empty: the cluster's default partition
  std::string time_limit; // empty: the partition's default limit
  std::string account;    // empty: the user's default account
  std::string job_name = "clusterbench";
  // Where the results (clusterbench-<job id>.json) and the job's log (clusterbench-<job id>.out)
  // go; the caller makes it absolute.
  std::string output_dir;
  // Absolute path of the clusterbench executable the job runs.
  std::string clusterbench;
  // Flags passed to `clusterbench run` as they are (each one quoted).
  std::vector<std::string> run_flags;
};

// Throws InputError naming the flag (--nodes, --gpus-per-node, --cpus-per-task, --partition,
// --time, --account, --job-name, --output-dir, or the run flag) that Slurm or the script cannot
// take.
void validate_sbatch_request(const SbatchRequest& request);

// The whole script, validated first.
std::string render_sbatch_script(const SbatchRequest& request);

// Slurm's time-limit forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S, or UNLIMITED/INFINITE.
bool is_slurm_time_limit(const std::string& text);

} // namespace cb
