#include "cuda/async_wait.hpp"

#include <thread>

namespace cb::cuda {

WaitOutcome wait_for(const std::function<bool()>& done, const std::function<bool()>& failed,
                     std::chrono::duration<double> timeout, std::chrono::microseconds poll) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(timeout);
  // Short waits (most batches) are caught by spinning, so timing adds no sleep granularity.
  constexpr int kSpinRounds = 1000;
  for (int round = 0;; ++round) {
    if (failed())
      return WaitOutcome::failed;
    if (done())
      return WaitOutcome::done;
    if (clock::now() >= deadline)
      return WaitOutcome::timed_out;
    if (round >= kSpinRounds)
      std::this_thread::sleep_for(poll);
  }
}

} // namespace cb::cuda
