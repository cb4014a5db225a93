#include "core/error.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>

namespace cb {
namespace {
// Per thread, not per process: in a single-process run every thread is a rank of its own.
thread_local int thread_rank = -1;
} // namespace

void name_this_thread_rank(int rank) {
  thread_rank = rank;
}

void throw_run_error(const char* file, int line, const std::string& what) {
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  // OMPI_COMM_WORLD_RANK / PMI_RANK are set by the launcher before MPI_Init, so the rank is known
  // even when the error happens while MPI itself is failing.
  std::string rank = thread_rank >= 0 ? std::to_string(thread_rank) : "?";
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (thread_rank >= 0)
      break;
    if (const char* v = std::getenv(var)) {
      rank = v;
      break;
    }
  }
  throw RunError(what + " (" + file + ":" + std::to_string(line) + ", host " + host.data() +
                 ", rank " + rank + ")");
}

} // namespace cb
