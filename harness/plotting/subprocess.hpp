#pragma once
// Runs a program to completion with its stdout and stderr captured, never through a shell (the
// words are passed as they are, so paths with spaces or quotes are safe).
#include <string>
#include <vector>

namespace cb {

struct ProcessOutcome {
  bool started = false;
  std::string start_error; // why it could not be started
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it
  std::string out, err;

  bool succeeded() const { return started && signal == 0 && exit_code == 0; }
};

// argv[0] is looked up on PATH when it has no slash.
ProcessOutcome run_process(const std::vector<std::string>& argv);

} // namespace cb
