#pragma once
// Ranks as the threads of one process (`run --single-process`): each thread runs the same body
// with its rank, and the process ends as an MPI job would when one rank fails.
#include <functional>

namespace cb {

// Runs `body(rank)` on `ranks` threads and returns rank 0's exit code. A rank that throws
// RankStopped (another rank failed and said so) stops the job with that code; when some thread
// still has not returned 30 s later (stuck in a device call), the process ends with it, as
// MPI_Abort would. Anything else rank 0 throws is thrown again here once every thread is joined;
// another rank's counts as exit code 2.
int run_rank_threads(int ranks, const std::function<int(int rank)>& body);

} // namespace cb
