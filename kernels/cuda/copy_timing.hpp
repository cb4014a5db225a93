#pragma once
// Timing copies the nvbandwidth way: every stream taking part is held behind a spin kernel on a
// pinned host flag while its warm-up and timed copies are queued between events, then all are
// released at once, so launch overhead is off the clock and concurrent streams really overlap.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "cuda/copy_span.hpp"

namespace cb::cuda {

struct CopyStream {
  int device = 0;                                 // the stream's device (where it launches)
  std::function<void(cudaStream_t)> enqueue_copy; // one copy on the given stream
};

class HeldStreams;

// One record's held copies: the streams, their events and the mapped flag are made once, when the
// record starts, not inside each timed batch (where one rank's set-up ran while another's copies
// already ran alone). `before_release` runs between the queuing and the release of every batch:
// a barrier there starts every rank's copies together. Every rank must then call time() alike.
class HeldCopies {
public:
  explicit HeldCopies(std::vector<CopyStream> streams, std::function<void()> before_release = {});
  ~HeldCopies();
  HeldCopies(const HeldCopies&) = delete;
  HeldCopies& operator=(const HeldCopies&) = delete;
  // Seconds each stream took for `copies` copies (its own start/stop events). Queued work per
  // stream must fit the launch queue, so copies + warmup stays small (nvbandwidth: 16 +
  // warm-up).
  std::vector<double> time(int warmup, int copies);
  // Where each stream's timed copies of the last time() ran on the host's steady clock (the
  // release, and the stop event as the host saw it complete: cuda/copy_span.hpp). Streams are
  // waited for in order, so a later stream's end is seen no earlier than an earlier one's.
  const std::vector<CopyWindow>& last_windows() const { return windows_; }

private:
  std::vector<CopyStream> streams_;
  std::vector<CopyWindow> windows_;
  std::function<void()> before_release_;
  std::unique_ptr<HeldStreams> held_;
};

// The same, for one batch: streams made and freed around it.
std::vector<double> time_held_copies(const std::vector<CopyStream>& streams, int warmup,
                                     int copies);

} // namespace cb::cuda
