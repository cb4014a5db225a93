#include "runtime/watchdog.hpp"

#include <mpi.h>

#include <cstdio>

namespace cb {

Watchdog::Watchdog(double timeout_s) : timeout_(timeout_s), thread_([this] { watch(); }) {}

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
      int rank = -1;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      std::fprintf(stderr,
                   "clusterbench run: rank %d: no progress for %.0f s in %s; aborting the job "
                   "(--timeout). Finished records are kept in the results file.\n",
                   rank, timeout_.count(), what_.c_str());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
}

}  // namespace cb
