#pragma once
// RAII over MPI: the session (MPI_Init/Finalize) and communicators (MPI_Comm_free on destruction).
// Only this file and mpi_collectives.cpp talk to MPI directly; everything else goes through them.
#include <mpi.h>

#include <string>
#include <vector>

namespace cb {

class MpiSession {
public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  static std::string library_version();
};

class Communicator {
public:
  static Communicator world();
  Communicator() = default; // the null communicator: this rank takes no part
  ~Communicator();
  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  bool valid() const { return comm_ != MPI_COMM_NULL; }
  MPI_Comm get() const { return comm_; }
  int rank() const;
  int size() const;

  // Ranks with color < 0 get the null communicator.
  Communicator split(int color, int key) const;
  Communicator split_shared() const; // ranks sharing memory: one node

  void barrier() const;
  double max(double value) const;
  double sum(double value) const;
  long long sum(long long value) const;
  // Broadcast from root 0.
  void broadcast(void* data, int bytes) const;
  int broadcast_int(int value) const;
  // Gathers one double per rank to rank 0 (others get an empty vector).
  std::vector<double> gather(double value) const;
  // Gathers a string per rank to every rank.
  std::vector<std::string> all_gather_string(const std::string& value) const;
  std::vector<int> all_gather_int(int value) const;

private:
  Communicator(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {}
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owned_ = false;
};

// Throws RunError with the MPI error string when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* what);

} // namespace cb
