#include "runtime/launcher.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "runtime/launcher_output.hpp"
#include "runtime/process_identity.hpp"

extern char** environ;

namespace cb {

LaunchMode detect_launch_mode() {
  auto set = [](const char* name) { return std::getenv(name) != nullptr; };
  // Our own child: under the mpirun we started, or alone when no mpirun was found (a singleton
  // MPI process). Either way it must not launch again.
  if (set("CLUSTERBENCH_LAUNCHED"))
    return LaunchMode::self_launched;
  // A task of an srun step (inside an sbatch script without srun only SLURM_JOB_ID is set, and
  // then we launch like anywhere else). Without an MPI plugin (srun --mpi=pmix) its MPI would be
  // a world of one: every task would run the whole sweep alone.
  if (running_under_slurm_step()) {
    return set("PMIX_RANK") || set("PMI_RANK") || set("PMI_SIZE") ? LaunchMode::slurm_step
                                                                  : LaunchMode::slurm_step_no_mpi;
  }
  if (set("OMPI_COMM_WORLD_SIZE") || set("PMI_SIZE") || set("PMIX_RANK") || set("PMI_RANK")) {
    return LaunchMode::external_mpi;
  }
  return LaunchMode::needs_launch;
}

std::string launch_mode_name(LaunchMode mode) {
  switch (mode) {
  case LaunchMode::external_mpi:
    return "mpirun";
  case LaunchMode::slurm_step:
    return "srun";
  case LaunchMode::self_launched:
    return "mpirun (self)";
  case LaunchMode::needs_launch:
    return "none";
  case LaunchMode::slurm_step_no_mpi:
    return "srun (no MPI plugin)";
  case LaunchMode::single_process:
    return "single process";
  }
  return "?";
}

int cores_per_gpu_rank(int cores, int gpu_ranks_per_node) {
  return std::max(1, cores / std::max(1, gpu_ranks_per_node));
}

std::vector<std::string> mpirun_command(const std::string& mpirun, const std::string& exe,
                                        const std::vector<std::string>& args, int np, bool as_root,
                                        int cores, int gpu_ranks_per_node) {
  std::vector<std::string> cmd{mpirun, "-np", std::to_string(np)};
  if (as_root)
    cmd.push_back("--allow-run-as-root");
  const int ranks_here = gpu_ranks_per_node > 0 ? std::min(np, gpu_ranks_per_node) : np;
  if (ranks_here > cores) {
    cmd.push_back("--oversubscribe");
  } else if (gpu_ranks_per_node > 0) {
    // A GPU's rank needs cores near its GPU, not one core: NCCL's proxy thread, the loader
    // threads and the event polling run beside each other. Consecutive slots with PE cores each
    // fill the first package before the second, as the GPUs are numbered (Open MPI 4.1 and 5
    // both take slot:PE=n); the rank then narrows its binding to its GPU's side (NVML).
    cmd.insert(cmd.end(),
               {"--map-by", "slot:PE=" + std::to_string(cores_per_gpu_rank(cores, ranks_here)),
                "--bind-to", "core"});
  } else {
    // One rank per core, pinned: the host backend's "device" is a core.
    cmd.insert(cmd.end(), {"--bind-to", "core", "--map-by", "core"});
  }
  cmd.push_back(exe);
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

std::string too_many_ranks_for_devices(int ranks_on_node, int devices, const std::string& host) {
  if (ranks_on_node <= devices)
    return "";
  return std::to_string(ranks_on_node) + " ranks on " + host + " but only " +
         std::to_string(devices) + " GPU" + (devices == 1 ? "" : "s") +
         " visible there: the cuda backend drives one GPU per rank (lower --np, or the "
         "launcher's ranks per node, or widen CUDA_VISIBLE_DEVICES)";
}

std::string ranks_sharing_a_gpu(const std::vector<int>& node_of_rank,
                                const std::vector<std::string>& host_of_rank,
                                const std::vector<nlohmann::json>& device_of_rank) {
  std::map<std::pair<int, std::string>, std::size_t> first_rank_of;
  for (std::size_t r = 0; r < device_of_rank.size() && r < node_of_rank.size(); ++r) {
    const nlohmann::json& d = device_of_rank[r];
    std::string id = d.value("uuid", "");
    if (id.empty())
      id = d.value("pci_bus_id", "");
    if (id.empty())
      continue; // nothing to tell devices apart by
    const auto [it, fresh] = first_rank_of.emplace(std::make_pair(node_of_rank[r], id), r);
    if (!fresh) {
      return "ranks " + std::to_string(it->second) + " and " + std::to_string(r) + " on " +
             (r < host_of_rank.size() ? host_of_rank[r] : std::string("one node")) +
             " would share GPU " + id +
             ": the cuda backend drives one GPU per rank (fewer ranks per node, or give each "
             "rank its own GPUs)";
    }
  }
  return "";
}

std::string self_executable() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0)
    return "clusterbench";
  return std::string(path, static_cast<std::size_t>(n));
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path)
    return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_./=:,+@%") == std::string::npos) {
    return word;
  }
  std::string out = "'";
  for (char c : word)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv)
    out += (out.empty() ? "" : " ") + shell_quote(a);
  return out;
}

namespace {

// Reads the child's stderr through `sorter` until every writer has closed it. Once rank 0 said the
// job is done, the child gets `grace_s` more to end; past it, SIGTERM (mpirun tears its ranks
// down), and 10 s later SIGKILL, after which a stopped rank still holding the pipe is not waited
// for. Returns whether the child had to be ended so.
template <typename Show>
bool pump_child_stderr(int fd, pid_t child, LauncherOutput& sorter, double grace_s,
                       const Show& show) {
  using clock = std::chrono::steady_clock;
  std::optional<clock::time_point> deadline;
  int signals_sent = 0;
  char buffer[4096];
  for (;;) {
    if (grace_s > 0 && sorter.job_done() && !deadline)
      deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                    std::chrono::duration<double>(grace_s));
    int wait_ms = -1;
    if (deadline) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - clock::now());
      wait_ms = static_cast<int>(std::clamp<long long>(left.count(), 0, INT_MAX));
    }
    pollfd readable{fd, POLLIN, 0};
    const int ready = ::poll(&readable, 1, wait_ms);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0) { // past the deadline
      if (signals_sent++ == 1) {
        ::kill(child, SIGKILL);
        return true;
      }
      ::kill(child, SIGTERM);
      deadline = clock::now() + std::chrono::seconds(10);
      continue;
    }
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return signals_sent > 0; // every writer (mpirun and what it started) has closed it
    show(sorter.feed(std::string(buffer, static_cast<std::size_t>(n))));
  }
}

} // namespace

int run_child(const std::vector<std::string>& argv, LauncherOutput* stderr_sorter,
              double end_grace_s, bool* ended_late) {
  std::vector<char*> c_argv;
  for (const auto& a : argv)
    c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  ::setenv("CLUSTERBENCH_LAUNCHED", "1", 1);
  // The ranks stop when this process is gone (runtime/launcher_watch.hpp).
  if (const std::string me = process_identity(); !me.empty())
    ::setenv(kLauncherIdentityVariable, me.c_str(), 1);
  const pid_t launcher = ::getpid();
  int err_pipe[2] = {-1, -1};
  if (stderr_sorter && ::pipe2(err_pipe, O_CLOEXEC) != 0)
    CB_RUN_ERROR(std::string("pipe failed: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0)
    CB_RUN_ERROR(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    // mpirun (or the lone rank) gets SIGTERM when this process dies, kill -9 included, and ends
    // the job as on an interrupt instead of running on with nobody waiting for it. The signal is
    // kept across exec. A launcher already gone before the call would never send it: checked.
    // (It follows the thread that forked: run_child runs on the main thread.)
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != launcher)
      ::_exit(3);
    std::signal(SIGINT, SIG_DFL);
    if (stderr_sorter)
      ::dup2(err_pipe[1], STDERR_FILENO); // dup2 clears O_CLOEXEC on the copy
    ::execvp(c_argv[0], c_argv.data());
    std::fprintf(stderr, "clusterbench run: cannot execute %s: %s\n", c_argv[0],
                 std::strerror(errno));
    ::_exit(3);
  }
  // The launcher forwards an interrupt to mpirun, which tears the job down cleanly.
  auto previous_int = std::signal(SIGINT, SIG_IGN);
  auto previous_term = std::signal(SIGTERM, SIG_IGN);
  if (stderr_sorter) {
    ::close(err_pipe[1]);
    auto show = [](const std::vector<std::string>& lines) {
      for (const auto& line : lines)
        std::fprintf(stderr, "%s\n", line.c_str());
      std::fflush(stderr);
    };
    const bool done_late = pump_child_stderr(err_pipe[0], pid, *stderr_sorter, end_grace_s, show);
    if (ended_late)
      *ended_late = done_late;
    show(stderr_sorter->finish());
    ::close(err_pipe[0]);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      CB_RUN_ERROR(std::string("waitpid failed: ") + std::strerror(errno));
  }
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return 3;
}

} // namespace cb
