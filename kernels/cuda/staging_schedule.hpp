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

// The other direction, a checkpoint's save from GPU memory: block k is copied from the GPU into
// staging buffer k mod B while the host writes the blocks before it from the other buffers; a
// buffer is copied into again only after its previous block was written (the writes are blocking,
// so the order of the steps ensures it), and a block is written only after its copy finished.
enum class SaveOp {
  copy,      // enqueue the copy of `block` from the GPU into `buffer`, then mark the buffer's event
  wait_copy, // wait until the copy into `buffer` (of `block`) has finished
  write,     // write block `block` from `buffer` to storage (host, blocking)
};

struct SaveStep {
  SaveOp op;
  int block = -1;
  int buffer = -1;
  bool operator==(const SaveStep&) const = default;
};

// The steps for `blocks` blocks through `buffers` staging buffers: the first `buffers` copies are
// queued at once, and each write is followed by the copy that refills its buffer.
std::vector<SaveStep> save_schedule(int blocks, int buffers);

} // namespace cb::cuda
