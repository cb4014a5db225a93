#include "runtime/process_identity.hpp"

#include <unistd.h>

#include <climits>
#include <fstream>
#include <sstream>

namespace cb {
namespace {

std::string first_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string link_target(const std::string& path) {
  char target[PATH_MAX];
  const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string();
}

// A boot id and a pid namespace together tell this machine from another, and this container
// from one beside it on the same kernel.
std::string this_machine() {
  const std::string boot = first_line_of("/proc/sys/kernel/random/boot_id");
  const std::string pid_namespace = link_target("/proc/self/ns/pid");
  if (boot.empty() || pid_namespace.empty() || boot.find(' ') != std::string::npos ||
      pid_namespace.find(' ') != std::string::npos) {
    return "";
  }
  return boot + " " + pid_namespace;
}

struct ProcStat {
  bool found = false;
  char state = '?';
  std::string start_time;
};

// /proc/PID/stat: "PID (COMM) STATE PPID ...", the start time the 22nd field. COMM may hold
// spaces and parentheses, so the fields are counted from the last ')'.
ProcStat proc_stat(const std::string& pid) {
  ProcStat out;
  const std::string line = first_line_of("/proc/" + pid + "/stat");
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos)
    return out;
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  for (int index = 3; fields >> field; ++index) {
    if (index == 3)
      out.state = field.empty() ? '?' : field[0];
    if (index == 22) {
      out.start_time = field;
      out.found = true;
      break;
    }
  }
  return out;
}

} // namespace

std::string process_identity() {
  const std::string machine = this_machine();
  const std::string pid = std::to_string(::getpid());
  const ProcStat self = proc_stat(pid);
  if (machine.empty() || !self.found)
    return "";
  return machine + " " + pid + " " + self.start_time;
}

ProcessState process_state(const std::string& identity) {
  ProcessState out;
  std::istringstream words(identity);
  std::string boot, pid_namespace, pid, start_time, extra;
  if (!(words >> boot >> pid_namespace >> pid >> start_time) || (words >> extra))
    return out;
  if (pid.find_first_not_of("0123456789") != std::string::npos)
    return out;
  const std::string machine = this_machine();
  if (machine.empty() || machine != boot + " " + pid_namespace)
    return out;
  out.on_this_machine = true;
  const ProcStat now = proc_stat(pid);
  // Z: exited, not yet reaped; X: being reaped.
  out.alive = now.found && now.start_time == start_time && now.state != 'Z' && now.state != 'X';
  return out;
}

} // namespace cb
