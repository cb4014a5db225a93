#include "runtime/launcher_watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>

namespace cb {
namespace {

// A signal handler can reach nothing but globals: the write end of the watch's pipe, set while a
// watch lives (one per process: the rank's).
std::atomic<int> sigterm_pipe{-1};

extern "C" void on_sigterm(int) {
  const int saved = errno;
  const int fd = sigterm_pipe.load();
  if (fd >= 0) {
    const char byte = 'T';
    [[maybe_unused]] const ssize_t n = ::write(fd, &byte, 1);
  }
  errno = saved;
}

struct sigaction previous_sigterm {};
struct sigaction previous_sigpipe {};

} // namespace

LauncherWatch::LauncherWatch(std::string launcher, std::chrono::milliseconds period)
    : launcher_(std::move(launcher)), period_(period), parent_(::getppid()) {
  // Without the pipe SIGTERM keeps its default action (the rank ends at once); the parent and
  // the launcher are still watched.
  if (::pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) == 0) {
    sigterm_pipe = wake_pipe_[1];
    struct sigaction take {};
    take.sa_handler = on_sigterm;
    take.sa_flags = SA_RESTART;
    sigemptyset(&take.sa_mask);
    ::sigaction(SIGTERM, &take, &previous_sigterm);
    took_sigterm_ = true;
  } else {
    wake_pipe_[0] = wake_pipe_[1] = -1;
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &previous_sigpipe);
  thread_ = std::thread([this] { watch(); });
}

LauncherWatch::~LauncherWatch() {
  quit_ = true;
  const char byte = 'Q';
  [[maybe_unused]] const ssize_t n = ::write(wake_pipe_[1], &byte, 1);
  thread_.join();
  if (took_sigterm_)
    ::sigaction(SIGTERM, &previous_sigterm, nullptr);
  ::sigaction(SIGPIPE, &previous_sigpipe, nullptr);
  sigterm_pipe = -1;
  for (int fd : wake_pipe_) {
    if (fd >= 0)
      ::close(fd);
  }
}

void LauncherWatch::watch() {
  for (;;) {
    pollfd wake{wake_pipe_[0], POLLIN, 0};
    const int ready = ::poll(&wake, 1, static_cast<int>(period_.count()));
    if (quit_)
      return;
    if (ready > 0) {
      char bytes[16];
      const ssize_t n = ::read(wake_pipe_[0], bytes, sizeof bytes);
      for (ssize_t i = 0; i < n; ++i) {
        if (bytes[i] == 'T')
          stop("stopped by SIGTERM");
      }
    }
    // The kernel hands an orphan to init or a subreaper: the parent it started with has exited.
    if (::getppid() != parent_) {
      stop("its parent process " + std::to_string(parent_) + " (mpirun or its daemon) is gone");
    }
    if (!launcher_.empty()) {
      if (const ProcessState state = process_state(launcher_);
          state.on_this_machine && !state.alive) {
        stop("the clusterbench run that launched it is gone");
      }
    }
  }
}

void LauncherWatch::stop(const std::string& why) {
  // Not in the middle of a results write: rank 0's file stays as its last finished record left
  // it. A write stuck for 10 s (a hung file system) does not keep the rank alive.
  [[maybe_unused]] const bool quiet = write_lock_.try_lock_for(std::chrono::seconds(10));
  const int rank = rank_;
  if (rank <= 0) {
    // write(2), not stdio: the main thread may hold stderr's lock, and whoever read our stderr
    // may be gone (SIGPIPE is ignored, so that is EPIPE).
    const std::string line =
        "clusterbench run: " + (rank == 0 ? std::string("rank 0") : std::string("a rank")) + ": " +
        why + "; stopping (exit 3). Finished records are kept in the results file.\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
  }
  std::_Exit(3);
}

} // namespace cb
