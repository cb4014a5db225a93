#pragma once
// What a Communicator is made of: one rank's view of a group of ranks. Two implementations: MPI
// (a rank is a process; mpi_comm.cpp) and one process's threads (a rank is a thread driving its
// own device; thread_comm.cpp). Every call is collective over the group unless it says otherwise.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/communicator.hpp"

namespace cb::detail {

class CommImpl {
public:
  virtual ~CommImpl() = default;
  virtual int rank() const = 0; // not collective
  virtual int size() const = 0; // not collective
  // The MPI handle, or MPI_COMM_NULL for ranks that are threads (not collective).
  virtual MPI_Comm mpi() const { return MPI_COMM_NULL; }
  // nullptr for the ranks with color < 0.
  virtual std::unique_ptr<CommImpl> split(int color, int key) const = 0;
  virtual std::unique_ptr<CommImpl> split_shared() const = 0;
  virtual void barrier() const = 0;
  // A barrier that sleeps instead of spinning while it waits.
  virtual void idle_barrier() const = 0;
  virtual double max(double value) const = 0;
  virtual double sum(double value) const = 0;
  virtual long long sum(long long value) const = 0;
  virtual void broadcast(void* data, int bytes) const = 0;
  virtual std::vector<double> gather(double value) const = 0;
  virtual Extremes extremes(double value) const = 0;
  virtual std::vector<std::vector<double>>
  gather_vectors(const std::vector<double>& values) const = 0;
  virtual std::vector<std::string> gather_string(const std::string& value) const = 0;
  virtual std::vector<std::string> all_gather_string(const std::string& value) const = 0;
  virtual std::vector<int> all_gather_int(int value) const = 0;
  // The world ranks of the members, in rank order.
  virtual std::vector<int> world_ranks() const = 0;
  // Ends the whole job with `code` (not collective; never returns): MPI_Abort, or for threads
  // RankStopped after waking every other rank's thread (`why` is then their message).
  [[noreturn]] virtual void abort(int code, const std::string& why) const = 0;
};

std::unique_ptr<CommImpl> mpi_world();

} // namespace cb::detail
