#pragma once
// RAII over the ranks of a job: the MPI session (MPI_Init/Finalize) and communicators. A
// communicator's ranks are MPI processes (mpirun, srun), or the threads of one process that drives
// every local device itself (`run --single-process`, no MPI at all). Only the implementations
// (mpi_comm.cpp, thread_comm.cpp), mpi_collectives.cpp and the host links talk to MPI directly.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace cb {

class MpiSession {
public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  static std::string library_version();
};

namespace detail {
class CommImpl;
}

// Thrown on the threads of a single-process job once one of its ranks has failed: waiting for
// that rank would be forever. Carries the job's exit code and the failed rank's message.
class RankStopped : public Error {
public:
  RankStopped(int code, const std::string& why) : Error(static_cast<ExitCode>(code), why) {}
};

// The smallest and the largest of one value over the ranks, and whose they are (the lowest rank
// on a tie).
struct Extremes {
  double min = 0, max = 0;
  int min_rank = 0, max_rank = 0;
};

class Communicator {
public:
  // MPI_COMM_WORLD (after MpiSession).
  static Communicator world();
  // The world of one process's n threads: element i is rank i's, to be used by thread i only.
  static std::vector<Communicator> threads(int n);
  Communicator(); // the null communicator: this rank takes no part
  ~Communicator();
  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  bool valid() const { return impl_ != nullptr; }
  // The MPI communicator; MPI_COMM_NULL when the ranks are threads of one process (is_mpi()).
  MPI_Comm get() const;
  bool is_mpi() const { return get() != MPI_COMM_NULL; }
  int rank() const;
  int size() const;
  // The world ranks of the members, in rank order (collective the first time it is called on a
  // communicator; later calls answer from each member's copy).
  std::vector<int> world_ranks() const;
  // Ends the whole job with exit code `code` after this rank said `why`: MPI_Abort; for threads,
  // every rank's thread stops with RankStopped (the failed rank's message) and the process then
  // exits with `code`.
  [[noreturn]] void abort(int code, const std::string& why) const;

  // Ranks with color < 0 get the null communicator.
  Communicator split(int color, int key) const;
  Communicator split_shared() const; // ranks sharing memory: one node

  void barrier() const;
  // A barrier whose waiting ranks sleep: idle ranks must not spin on a core a working rank needs.
  void idle_barrier() const;
  double max(double value) const;
  double sum(double value) const;
  long long sum(long long value) const;
  // Broadcast from root 0.
  void broadcast(void* data, int bytes) const;
  int broadcast_int(int value) const;
  // Rank 0's `value` on every rank (what one rank read for all: a file parsed once, not by each).
  std::string broadcast_string(const std::string& value) const;
  // Gathers one double per rank to rank 0 (others get an empty vector).
  std::vector<double> gather(double value) const;
  // Every rank gets the extremes of `value` over the ranks: one reduction.
  Extremes extremes(double value) const;
  // Gathers each rank's values (lengths may differ) to rank 0, one vector per rank in rank order;
  // the others get an empty result. Rank 0 holds all of it: callers keep the total bounded.
  std::vector<std::vector<double>> gather_vectors(const std::vector<double>& values) const;
  // Gathers a string per rank to rank 0, in rank order; the others get an empty vector. What only
  // rank 0 needs (what it writes) goes this way: every rank receiving every rank's text is
  // ranks^2 bytes in all, 8,192 copies of the lot at 1,024 nodes x 8.
  std::vector<std::string> gather_string(const std::string& value) const;
  // Gathers a string per rank to every rank.
  std::vector<std::string> all_gather_string(const std::string& value) const;
  std::vector<int> all_gather_int(int value) const;

private:
  explicit Communicator(std::unique_ptr<detail::CommImpl> impl);
  std::unique_ptr<detail::CommImpl> impl_;
};

// Throws RunError with the MPI error string when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* what);

// The first non-empty problem of any rank (the same answer everywhere), or "" (collective).
std::string first_problem_anywhere(const Communicator& world, const std::string& mine);

} // namespace cb
