#pragma once
// A process named so that another process can tell, later, whether it is still alive: its pid
// alone is not enough, as pids are reused, and means nothing on another machine or in another pid
// namespace.
#include <string>

namespace cb {

// The environment variable through which `clusterbench run` names itself to the ranks it starts.
inline constexpr const char* kLauncherIdentityVariable = "CLUSTERBENCH_LAUNCHER";

// This process: "BOOT_ID PID_NAMESPACE PID START_TIME" (start time in clock ticks since boot, as
// /proc/PID/stat gives it). Empty when /proc does not tell.
std::string process_identity();

struct ProcessState {
  // False when `identity` was written on another machine or in another pid namespace, or is not
  // an identity at all: then nothing can be said, and `alive` stays true.
  bool on_this_machine = false;
  // False once the process has exited (a zombie not yet reaped has exited) or its pid has been
  // taken by a process started later.
  bool alive = true;
};
ProcessState process_state(const std::string& identity);

} // namespace cb
