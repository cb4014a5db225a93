// all_gather: every rank ends with every rank's block, in rank order. The size is the gathered
// buffer (nccl-tests); busbw factor (n-1)/n.
#include "collectives/collective_case.hpp"

namespace cb {

class AllGatherCase : public CollectiveCase {
public:
  AllGatherCase() : CollectiveCase(Collective::all_gather) {}

protected:
  bool reduces() const override { return false; }
  CollectiveShape shape(std::size_t bytes, std::size_t size, int ranks) const override {
    const std::size_t block =
        std::max<std::size_t>(1, bytes / size / static_cast<std::size_t>(ranks));
    const std::size_t total = block * static_cast<std::size_t>(ranks);
    return {block, total, block, total * size};
  }
  double send_value(int rank, int, const CollectiveShape&, std::size_t j) const override {
    return pattern_value(rank, j);
  }
  double expected_value(int, int, const CollectiveShape& s, std::size_t j,
                        ReduceOp) const override {
    return pattern_value(static_cast<int>(j / s.send_count), j % s.send_count);
  }
  std::size_t in_place_send_offset(int rank, const CollectiveShape& s) const override {
    return static_cast<std::size_t>(rank) * s.send_count;
  }
  void call(CollectiveComm& comm, const void* send, void* recv, std::size_t count, DType t,
            ReduceOp) const override {
    comm.all_gather(send, recv, count, t);
  }
};

CB_REGISTER_CASE(AllGatherCase);

} // namespace cb
