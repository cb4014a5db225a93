#include "verdicts/overlay_plot.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace cb {
namespace {

std::string shell_quoted(const std::string& word) {
  if (word.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=") ==
      std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char ch : word)
    quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& word : argv)
    line += (line.empty() ? "" : " ") + shell_quoted(word);
  return line;
}

// RAII for posix_spawn's file actions.
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

} // namespace

std::string find_python() {
  if (const char* chosen = std::getenv("CLUSTERBENCH_PYTHON"); chosen && *chosen)
    return chosen;
  if (::access("/usr/bin/python3", X_OK) == 0)
    return "/usr/bin/python3";
  return "python3";
}

std::string find_plot_script() {
  const std::string relative = "plots/plot.py";
  std::error_code ec;
  if (std::filesystem::exists(relative, ec))
    return relative;
  return CB_PLOT_SCRIPT;
}

std::vector<std::string> overlay_plot_command(const std::string& a, const std::string& b,
                                              const std::string& out_dir) {
  return {find_python(), find_plot_script(), "--overlay", a, b, "--out", out_dir};
}

PlotOutcome run_overlay_plot(const std::string& a, const std::string& b,
                             const std::string& out_dir) {
  const std::vector<std::string> argv_text = overlay_plot_command(a, b, out_dir);
  const std::string how = "to get the plots, install matplotlib for that Python (Debian: apt-get "
                          "install python3-matplotlib) or point CLUSTERBENCH_PYTHON at one that "
                          "has it, then run: " +
                          command_line(argv_text);
  std::vector<char*> argv;
  for (const auto& word : argv_text)
    argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);

  SpawnActions actions;
  ::posix_spawn_file_actions_adddup2(actions.get(), STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = 0;
  const int spawn_error =
      ::posix_spawnp(&pid, argv[0], actions.get(), nullptr, argv.data(), environ);
  if (spawn_error != 0) {
    return {false,
            "cannot start " + argv_text[0] + " (" + std::strerror(spawn_error) + "); " + how};
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return {false, "lost the plotting process; " + how};
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    return {true, "plots written to " + out_dir};
  }
  const std::string ending = WIFEXITED(status)
                                 ? "exited with " + std::to_string(WEXITSTATUS(status))
                                 : "was killed by signal " + std::to_string(WTERMSIG(status));
  return {false, "the plotting script " + ending + "; " + how};
}

} // namespace cb
