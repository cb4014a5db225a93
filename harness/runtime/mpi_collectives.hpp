#pragma once
// Collectives over MPI for the host backend (and for any backend that wants MPI on host memory).
#include "runtime/backend.hpp"
#include "runtime/communicator.hpp"

namespace cb {

class MpiCollectives : public CollectiveComm {
public:
  explicit MpiCollectives(const Communicator& comm) : comm_(comm.get()), rank_(comm.rank()) {}
  std::string why_unsupported(Collective c, DType t, ReduceOp op, bool in_place) const override;
  void all_reduce(const void* send, void* recv, std::size_t count, DType t, ReduceOp op) override;
  void all_gather(const void* send, void* recv, std::size_t send_count, DType t) override;
  void reduce_scatter(const void* send, void* recv, std::size_t recv_count, DType t,
                      ReduceOp op) override;
  void broadcast(const void* send, void* recv, std::size_t count, DType t, int root) override;
  void alltoall(const void* send, void* recv, std::size_t count_per_peer, DType t) override;

private:
  MPI_Comm comm_;
  int rank_;
};

} // namespace cb
