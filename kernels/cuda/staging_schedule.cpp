#include "cuda/staging_schedule.hpp"

namespace cb::cuda {

std::vector<StagingStep> staging_schedule(int blocks, int buffers) {
  std::vector<StagingStep> steps;
  if (buffers < 1)
    buffers = 1;
  for (int k = 0; k < blocks; ++k) {
    const int buffer = k % buffers;
    // The buffer's previous copy (block k - buffers) must be done before it is overwritten.
    if (k >= buffers)
      steps.push_back({StagingOp::wait_copy, k - buffers, buffer});
    steps.push_back({StagingOp::read, k, buffer});
    steps.push_back({StagingOp::copy, k, buffer});
  }
  steps.push_back({StagingOp::finish, -1, -1});
  return steps;
}

std::vector<SaveStep> save_schedule(int blocks, int buffers) {
  std::vector<SaveStep> steps;
  if (buffers < 1)
    buffers = 1;
  for (int k = 0; k < blocks && k < buffers; ++k)
    steps.push_back({SaveOp::copy, k, k});
  for (int k = 0; k < blocks; ++k) {
    const int buffer = k % buffers;
    steps.push_back({SaveOp::wait_copy, k, buffer});
    steps.push_back({SaveOp::write, k, buffer});
    // The buffer is free again: the copy of the block `buffers` ahead runs during the next writes.
    if (k + buffers < blocks)
      steps.push_back({SaveOp::copy, k + buffers, buffer});
  }
  return steps;
}

} // namespace cb::cuda
