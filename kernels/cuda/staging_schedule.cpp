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

} // namespace cb::cuda
