// reduce_scatter: rank r ends with block r of the reduction of every rank's buffer. The size is
// the full send buffer (nccl-tests); busbw factor (n-1)/n.
#include "collectives/collective_case.hpp"

namespace cb {

class ReduceScatterCase : public CollectiveCase {
public:
  ReduceScatterCase() : CollectiveCase(Collective::reduce_scatter) {}

protected:
  CollectiveShape shape(std::size_t bytes, std::size_t size, int ranks) const override {
    const std::size_t block =
        std::max<std::size_t>(1, bytes / size / static_cast<std::size_t>(ranks));
    const std::size_t total = block * static_cast<std::size_t>(ranks);
    return {total, block, block, total * size};
  }
  double send_value(int rank, int, const CollectiveShape&, std::size_t j) const override {
    return pattern_value(rank, j);
  }
  double expected_value(int rank, int ranks, const CollectiveShape& s, std::size_t j,
                        ReduceOp op) const override {
    return reduce_over_ranks(ranks, static_cast<std::size_t>(rank) * s.recv_count + j, op);
  }
  std::size_t in_place_recv_offset(int rank, const CollectiveShape& s) const override {
    return static_cast<std::size_t>(rank) * s.recv_count;
  }
  void call(CollectiveComm& comm, const void* send, void* recv, std::size_t count, DType t,
            ReduceOp op) const override {
    comm.reduce_scatter(send, recv, count, t, op);
  }
};

CB_REGISTER_CASE(ReduceScatterCase);

} // namespace cb
