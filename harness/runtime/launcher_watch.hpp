#pragma once
// A rank outlives neither its launcher nor its parent. `clusterbench run` gives mpirun a
// parent-death signal (runtime/launcher.cpp), so mpirun ends the job when the launcher is killed
// even by kill -9; but mpirun may itself be killed, and a rank waiting in a collective for a peer
// that already left would then wait forever. So each rank watches, from a thread of its own:
//   - its parent process (mpirun, orted, prted, slurmstepd) being replaced: the kernel hands an
//     orphan to init or a subreaper, and getppid() changes;
//   - on the launcher's own machine, the `clusterbench run` that launched it being gone (its pid
//     and start time, passed in the environment, so a reused pid is not taken for it);
//   - SIGTERM, which is how mpirun and srun end a job.
// Whichever comes first, the rank stops with exit code 3 between two writes of the results file,
// so rank 0 leaves the file as its last finished record left it and no temporary file behind.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/process_identity.hpp"

namespace cb {

class LauncherWatch {
public:
  // Starts the thread and takes SIGTERM (ignoring SIGPIPE: a rank whose output goes nowhere is
  // stopped by this watch, between writes, not by a signal in the middle of one). `launcher`: the
  // identity from kLauncherIdentityVariable, or empty.
  explicit LauncherWatch(std::string launcher,
                         std::chrono::milliseconds period = std::chrono::milliseconds(200));
  ~LauncherWatch();
  LauncherWatch(const LauncherWatch&) = delete;
  LauncherWatch& operator=(const LauncherWatch&) = delete;

  // The world rank, once MPI knows it: only rank 0 (or a rank not yet known) says why it stopped.
  void set_rank(int rank) { rank_ = rank; }
  // Held across each write of the results file; the watch takes it before the rank exits.
  std::timed_mutex& write_lock() { return write_lock_; }

private:
  void watch();
  [[noreturn]] void stop(const std::string& why);

  std::string launcher_;
  std::chrono::milliseconds period_;
  // Read by the constructor, not the thread: a parent that exits before the thread first runs
  // is still seen to go.
  int parent_;
  std::atomic<int> rank_{-1};
  std::timed_mutex write_lock_;
  int wake_pipe_[2] = {-1, -1};
  bool took_sigterm_ = false;
  std::atomic<bool> quit_{false};
  std::thread thread_;
};

} // namespace cb
