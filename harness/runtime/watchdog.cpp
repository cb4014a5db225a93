#include "runtime/watchdog.hpp"

#include <cstdio>
#include <cstdlib>

namespace cb {

Watchdog::Watchdog(double timeout_s, int rank)
    : timeout_(timeout_s), rank_(rank), thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Watchdog::arm(const std::string& what) {
  std::lock_guard lock(mutex_);
  what_ = what;
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout_);
  armed_ = true;
  wake_.notify_all();
}

void Watchdog::progressing() {
  std::lock_guard lock(mutex_);
  if (armed_)
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout_);
}

void Watchdog::disarm() {
  std::lock_guard lock(mutex_);
  armed_ = false;
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (!armed_) {
      wake_.wait(lock);
      continue;
    }
    if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ && !stop_ &&
        std::chrono::steady_clock::now() >= deadline_) {
      // No MPI call from this thread (MPI runs single-threaded): the rank leaves with exit code 3
      // and the launcher (mpirun, srun) tears the rest of the job down. Every finished record is
      // on disk: in the results file (each version written atomically) or its journal, which
      // every loader reads with it (results/incremental_writer.hpp).
      std::fprintf(stderr,
                   "clusterbench run: rank %d: no progress for %.0f s in %s; aborting the job "
                   "(--timeout). Finished records are kept in the results file.\n",
                   rank_, timeout_.count(), what_.c_str());
      std::fflush(stderr);
      std::_Exit(3);
    }
  }
}

} // namespace cb
