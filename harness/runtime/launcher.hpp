#pragma once
// How `clusterbench run` gets its ranks: already under MPI (an external mpirun, or srun under
// Slurm) it runs as it is; otherwise it re-executes itself through mpirun with one rank per device.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cb {

enum class LaunchMode {
  external_mpi,
  slurm_step,
  slurm_step_no_mpi,
  self_launched,
  needs_launch,
  single_process // --single-process: the ranks are threads of this process
};

// From the environment the MPI launchers and Slurm set.
LaunchMode detect_launch_mode();
std::string launch_mode_name(LaunchMode mode);

// mpirun -np N [--allow-run-as-root] [placement] EXE ARGS...; placement: --oversubscribe when a
// node gets more ranks than cores; host ranks (gpu_ranks_per_node 0) one per core,
// --bind-to core --map-by core; GPU ranks the node's cores shared out,
// --map-by slot:PE=<cores / ranks on the node> --bind-to core. `cores`: a node's physical cores.
std::vector<std::string> mpirun_command(const std::string& mpirun, const std::string& exe,
                                        const std::vector<std::string>& args, int np, bool as_root,
                                        int cores, int gpu_ranks_per_node = 0);
// The cores each GPU rank of a node gets: at least one.
int cores_per_gpu_rank(int cores, int gpu_ranks_per_node);

std::string self_executable();

// A GPU backend drives one device per rank: more ranks on a node than devices is bad input, not
// devices shared behind the user's back. The line to refuse with, or "" when they fit.
std::string too_many_ranks_for_devices(int ranks_on_node, int devices, const std::string& host);
// The same rule once the ranks have their devices: two ranks of one node on the same GPU (same
// UUID, else same PCI bus id) is refused; ranks that each see only their own GPUs (srun
// --gpu-bind, CUDA_VISIBLE_DEVICES per rank) are fine. `device_of_rank`: backend.device() per
// world rank. The line to refuse with, or "".
std::string ranks_sharing_a_gpu(const std::vector<int>& node_of_rank,
                                const std::vector<std::string>& host_of_rank,
                                const std::vector<nlohmann::json>& device_of_rank);
// Finds a program on PATH; empty when absent.
std::string find_on_path(const std::string& program);
std::string shell_quote(const std::string& word);
std::string command_line(const std::vector<std::string>& argv);

class LauncherOutput;

// Runs argv as a child (environment plus CLUSTERBENCH_LAUNCHED=1 and this process's identity in
// kLauncherIdentityVariable) and returns its exit code; a child killed by a signal counts as a
// failed run (3). The child gets SIGTERM if this process dies first. With `stderr_sorter`, the
// child's stderr goes through it: the lines it shows are written to ours as they come, the rest it
// holds. Once rank 0 said the job is done (kJobDoneLine), the child gets `end_grace_s` (0: no
// limit) to end, else it is ended (SIGTERM, then SIGKILL) and `ended_late` set: a rank stopped or
// hung after the results were written would otherwise hold the job, and its nodes, forever.
int run_child(const std::vector<std::string>& argv, LauncherOutput* stderr_sorter = nullptr,
              double end_grace_s = 0, bool* ended_late = nullptr);

} // namespace cb
