#include "runtime/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "core/format.hpp"

namespace cb {

Progress::Progress(long total_units, bool enabled)
    : total_(total_units), enabled_(enabled), terminal_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (enabled_ && terminal_)
    std::fprintf(stderr, "\r\033[K");
}

void Progress::stage(const std::string& label) {
  label_ = label;
  if (!enabled_)
    return;
  if (terminal_) {
    draw();
  } else {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "progress: %ld/%ld %s (elapsed %s)\n", done_, total_, label_.c_str(),
                 format_clock(elapsed).c_str());
  }
}

void Progress::advance(long units) {
  done_ += units;
  if (enabled_ && terminal_)
    draw();
}

void Progress::clear() {
  if (enabled_ && terminal_)
    std::fprintf(stderr, "\r\033[K");
}

void Progress::draw() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string eta = "--:--";
  if (done_ > 0 && done_ <= total_) {
    eta = format_clock(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  }
  std::fprintf(stderr, "\r\033[K[%ld/%ld] %s  elapsed %s  ETA %s", done_, total_, label_.c_str(),
               format_clock(elapsed).c_str(), eta.c_str());
  std::fflush(stderr);
}

} // namespace cb
