// alltoall: block p of rank r's send buffer goes to rank p, which stores it as its block r. The
// size is one rank's whole buffer (nccl-tests); busbw factor (n-1)/n.
#include "collectives/collective_case.hpp"

namespace cb {

class AlltoallCase : public CollectiveCase {
public:
  AlltoallCase() : CollectiveCase(Collective::alltoall) {}

protected:
  bool reduces() const override { return false; }
  CollectiveShape shape(std::size_t bytes, std::size_t size, int ranks) const override {
    const std::size_t block =
        std::max<std::size_t>(1, bytes / size / static_cast<std::size_t>(ranks));
    const std::size_t total = block * static_cast<std::size_t>(ranks);
    return {total, total, block, total * size};
  }
  double send_value(int rank, int, const CollectiveShape&, std::size_t j) const override {
    return pattern_value(rank, j);
  }
  double expected_value(int rank, int, const CollectiveShape& s, std::size_t j,
                        ReduceOp) const override {
    const std::size_t block = s.call_count;
    const int source = static_cast<int>(j / block);
    return pattern_value(source, static_cast<std::size_t>(rank) * block + j % block);
  }
  void call(CollectiveComm& comm, const void* send, void* recv, std::size_t count, DType t,
            ReduceOp) const override {
    comm.alltoall(send, recv, count, t);
  }
};

CB_REGISTER_CASE(AlltoallCase);

} // namespace cb
