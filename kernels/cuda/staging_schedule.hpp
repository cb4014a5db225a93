#pragma once
// The double-buffered storage-to-GPU pipeline as data (host code, unit-tested): block k is read
// into staging buffer k mod B while the copies of earlier blocks run on the GPU's copy engine; a
// buffer is refilled only after the copy that last used it has finished.
#include <vector>

namespace cb::cuda {

enum class StagingOp {
  wait_copy, // wait until the copy out of `buffer` has finished (before refilling it)
  read,      // read block `block` from storage into `buffer` (host, blocking)
  copy,      // enqueue the copy of `block` from `buffer` to the GPU, then mark the buffer's event
  finish,    // wait for every copy
};

struct StagingStep {
  StagingOp op;
  int block = -1;
  int buffer = -1;
  bool operator==(const StagingStep&) const = default;
};

// The steps for `blocks` blocks through `buffers` staging buffers (2 = double buffering).
std::vector<StagingStep> staging_schedule(int blocks, int buffers);

} // namespace cb::cuda
