#include "runtime/mpi_collectives.hpp"

#include <climits>
#include <cstring>
#include <utility>

#include "core/error.hpp"

namespace cb {
namespace {

MPI_Datatype mpi_type(DType t) {
  switch (t) {
  case DType::f32:
    return MPI_FLOAT;
  case DType::f64:
    return MPI_DOUBLE;
  case DType::i32:
    return MPI_INT32_T;
  default:
    return MPI_DATATYPE_NULL;
  }
}

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
  case ReduceOp::sum:
    return MPI_SUM;
  case ReduceOp::min:
    return MPI_MIN;
  case ReduceOp::max:
    return MPI_MAX;
  }
  return MPI_OP_NULL;
}

int as_count(std::size_t count) {
  return static_cast<int>(count);
}

// A communicator split from another: what MPI's own jobs create beside MPI_COMM_WORLD.
class SplitCommunicator : public Backend::CommunicatorHandle {
public:
  explicit SplitCommunicator(Communicator comm) : comm_(std::move(comm)) {}

private:
  Communicator comm_; // MPI_Comm_free when destroyed
};

} // namespace

std::unique_ptr<Backend::CommunicatorHandle> Backend::new_communicator(const Communicator& comm) {
  return std::make_unique<SplitCommunicator>(comm.split(0, comm.rank()));
}

std::string MpiCollectives::why_unsupported(Collective c, DType t, ReduceOp, bool) const {
  if (mpi_type(t) == MPI_DATATYPE_NULL) {
    return "MPI has no " + std::string(dtype_name(t)) +
           " type (host backend: float, double, int32)";
  }
  switch (c) {
  case Collective::all_reduce:
  case Collective::all_gather:
  case Collective::reduce_scatter:
  case Collective::broadcast:
  case Collective::alltoall:
    return "";
  default:
    return "not a collective of the host backend";
  }
}

void MpiCollectives::all_reduce(const void* send, void* recv, std::size_t count, DType t,
                                ReduceOp op) {
  const void* source = send == recv ? MPI_IN_PLACE : send;
  check_mpi(MPI_Allreduce(source, recv, as_count(count), mpi_type(t), mpi_op(op), comm_),
            "MPI_Allreduce");
}

void MpiCollectives::all_gather(const void* send, void* recv, std::size_t send_count, DType t) {
  const std::size_t own_offset = static_cast<std::size_t>(rank_) * send_count * dtype_size(t);
  const bool in_place = static_cast<const char*>(recv) + own_offset == send;
  check_mpi(MPI_Allgather(in_place ? MPI_IN_PLACE : send, as_count(send_count), mpi_type(t), recv,
                          as_count(send_count), mpi_type(t), comm_),
            "MPI_Allgather");
}

void MpiCollectives::reduce_scatter(const void* send, void* recv, std::size_t recv_count, DType t,
                                    ReduceOp op) {
  const std::size_t own_offset = static_cast<std::size_t>(rank_) * recv_count * dtype_size(t);
  const bool in_place = static_cast<const char*>(send) + own_offset == recv;
  if (in_place) {
    // MPI leaves the in-place result at the start of the buffer; NCCL's convention (which the
    // cases use) wants it at the rank's own block, so move it there.
    void* buffer = const_cast<void*>(send);
    check_mpi(MPI_Reduce_scatter_block(MPI_IN_PLACE, buffer, as_count(recv_count), mpi_type(t),
                                       mpi_op(op), comm_),
              "MPI_Reduce_scatter_block");
    if (own_offset != 0)
      std::memmove(recv, buffer, recv_count * dtype_size(t));
    return;
  }
  check_mpi(
      MPI_Reduce_scatter_block(send, recv, as_count(recv_count), mpi_type(t), mpi_op(op), comm_),
      "MPI_Reduce_scatter_block");
}

void MpiCollectives::broadcast(const void* send, void* recv, std::size_t count, DType t, int root) {
  // Out of place, the root sends from its send buffer and the others receive into theirs; the
  // root's receive buffer is left alone (MPI has no out-of-place broadcast).
  void* buffer = rank_ == root ? const_cast<void*>(send) : recv;
  check_mpi(MPI_Bcast(buffer, as_count(count), mpi_type(t), root, comm_), "MPI_Bcast");
}

void MpiCollectives::alltoall(const void* send, void* recv, std::size_t count_per_peer, DType t) {
  const void* source = send == recv ? MPI_IN_PLACE : send;
  check_mpi(MPI_Alltoall(source, as_count(count_per_peer), mpi_type(t), recv,
                         as_count(count_per_peer), mpi_type(t), comm_),
            "MPI_Alltoall");
}

} // namespace cb
