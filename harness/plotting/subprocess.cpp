#include "plotting/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace cb {
namespace {

// A file descriptor closed when it goes out of scope.
class FileDescriptor {
public:
  FileDescriptor() = default;
  ~FileDescriptor() { reset(); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = fd;
  }

private:
  int fd_ = -1;
};

struct Pipe {
  FileDescriptor read, write;
};

bool open_pipe(Pipe& p) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return false;
  p.read.reset(fds[0]);
  p.write.reset(fds[1]);
  return true;
}

class SpawnActions {
public:
  SpawnActions() { ::posix_spawn_file_actions_init(&actions_); }
  ~SpawnActions() { ::posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

private:
  posix_spawn_file_actions_t actions_;
};

// Reads both pipes until both close, so neither side blocks on a full pipe.
void drain(int out_fd, int err_fd, std::string& out, std::string& err) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open_count = 2;
  char buffer[8192];
  while (open_count > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0)
        continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_count;
      }
    }
  }
}

} // namespace

ProcessOutcome run_process(const std::vector<std::string>& argv_text) {
  ProcessOutcome outcome;
  if (argv_text.empty()) {
    outcome.start_error = "no program given";
    return outcome;
  }
  Pipe out, err;
  if (!open_pipe(out) || !open_pipe(err)) {
    outcome.start_error = std::string("cannot create a pipe (") + std::strerror(errno) + ")";
    return outcome;
  }
  std::vector<char*> argv;
  for (const auto& word : argv_text)
    argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);

  SpawnActions actions;
  ::posix_spawn_file_actions_adddup2(actions.get(), out.write.get(), STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(actions.get(), err.write.get(), STDERR_FILENO);
  pid_t pid = 0;
  const int spawn_error =
      ::posix_spawnp(&pid, argv[0], actions.get(), nullptr, argv.data(), environ);
  out.write.reset();
  err.write.reset();
  if (spawn_error != 0) {
    outcome.start_error = std::strerror(spawn_error);
    return outcome;
  }
  outcome.started = true;
  drain(out.read.get(), err.read.get(), outcome.out, outcome.err);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      outcome.start_error = std::string("lost the process (") + std::strerror(errno) + ")";
      return outcome;
    }
  }
  if (WIFEXITED(status))
    outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    outcome.signal = WTERMSIG(status);
  return outcome;
}

} // namespace cb
