#include "runtime/rank_threads.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/communicator.hpp"

namespace cb {

int run_rank_threads(int ranks, const std::function<int(int rank)>& body) {
  std::vector<int> codes(static_cast<std::size_t>(ranks), 0);
  std::exception_ptr root_error;
  // The threads report back here, so that once a rank has failed the process ends even if a
  // thread never returns (stuck in a device call): after a grace period, as MPI_Abort would.
  std::mutex mutex;
  std::condition_variable returned;
  int finished = 0;
  bool stopped = false;
  int stop_code = 3;
  std::vector<std::jthread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      int code = 0;
      try {
        code = body(r);
      } catch (const RankStopped& e) {
        const std::lock_guard lock(mutex);
        stopped = true;
        stop_code = static_cast<int>(e.code());
        code = stop_code;
      } catch (...) {
        if (r == 0)
          root_error = std::current_exception();
        code = 2;
      }
      {
        const std::lock_guard lock(mutex);
        codes[static_cast<std::size_t>(r)] = code;
        ++finished;
      }
      returned.notify_all();
    });
  }
  {
    std::unique_lock lock(mutex);
    returned.wait(lock, [&] { return finished == ranks || stopped; });
    if (!returned.wait_for(lock, std::chrono::seconds(30), [&] { return finished == ranks; })) {
      std::fprintf(stderr,
                   "clusterbench run: %d rank thread(s) did not stop within 30 s of a failed "
                   "rank; ending the process\n",
                   ranks - finished);
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(stop_code);
    }
  }
  threads.clear(); // joined
  if (root_error)
    std::rethrow_exception(root_error);
  return stopped ? stop_code : codes[0];
}

} // namespace cb
