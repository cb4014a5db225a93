#pragma once
// Waiting on asynchronous device work without ever waiting forever: poll "done?" and "failed?"
// until one is true or the timeout passes. NCCL errors (a lost peer, a network fault) never
// complete the stream they are on, so a plain cudaStreamSynchronize would hang; polling lets the
// backend notice ncclCommGetAsyncError, abort the communicator and raise an error instead.
#include <chrono>
#include <functional>

namespace cb::cuda {

enum class WaitOutcome { done, failed, timed_out };

// Polls `failed` before `done` each round (an error is reported even if the work then "completes"
// with garbage), sleeping `poll` between rounds after the first spin-only rounds.
WaitOutcome wait_for(const std::function<bool()>& done, const std::function<bool()>& failed,
                     std::chrono::duration<double> timeout,
                     std::chrono::microseconds poll = std::chrono::microseconds(50));

} // namespace cb::cuda
