// all_reduce: every rank ends with the reduction of every rank's buffer. busbw factor 2(n-1)/n.
#include "collectives/collective_case.hpp"

namespace cb {

class AllReduceCase : public CollectiveCase {
public:
  AllReduceCase() : CollectiveCase(Collective::all_reduce) {}

protected:
  CollectiveShape shape(std::size_t bytes, std::size_t size, int) const override {
    const std::size_t count = std::max<std::size_t>(1, bytes / size);
    return {count, count, count, count * size};
  }
  double send_value(int rank, int, const CollectiveShape&, std::size_t j) const override {
    return pattern_value(rank, j);
  }
  double expected_value(int, int ranks, const CollectiveShape&, std::size_t j,
                        ReduceOp op) const override {
    return reduce_over_ranks(ranks, j, op);
  }
  void call(CollectiveComm& comm, const void* send, void* recv, std::size_t count, DType t,
            ReduceOp op) const override {
    comm.all_reduce(send, recv, count, t, op);
  }
};

CB_REGISTER_CASE(AllReduceCase);

} // namespace cb
