#pragma once
// Progress on stderr (rank 0): an updating line with an ETA on a terminal, plain lines otherwise
// (logs and CI).
#include <chrono>
#include <string>

namespace cb {

class Progress {
public:
  Progress(long total_units, bool enabled);
  ~Progress();
  // A new stage (case at a GPU count); in plain mode one line per stage.
  void stage(const std::string& label);
  void advance(long units = 1);
  // Clears the updating line before other output reaches the terminal.
  void clear();

private:
  void draw();
  long total_;
  long done_ = 0;
  bool enabled_;
  bool terminal_;
  std::string label_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace cb
