#pragma once
// Timing copies the nvbandwidth way: every stream taking part is held behind a spin kernel on a
// pinned host flag while its warm-up and timed copies are queued between events, then all are
// released at once, so launch overhead is off the clock and concurrent streams really overlap.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace cb::cuda {

struct CopyStream {
  int device = 0;                                 // the stream's device (where it launches)
  std::function<void(cudaStream_t)> enqueue_copy; // one copy on the given stream
};

// Seconds each stream took for `copies` copies (its own start/stop events). Queued work per
// stream must fit the launch queue, so copies + warmup stays small (nvbandwidth: 16 + warm-up).
std::vector<double> time_held_copies(const std::vector<CopyStream>& streams, int warmup,
                                     int copies);

} // namespace cb::cuda
