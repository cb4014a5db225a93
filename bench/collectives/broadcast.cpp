// broadcast: every rank ends with root 0's buffer. busbw factor 1.
#include "collectives/collective_case.hpp"

namespace cb {

class BroadcastCase : public CollectiveCase {
public:
  BroadcastCase() : CollectiveCase(Collective::broadcast) {}

protected:
  static constexpr int kRoot = 0;
  bool reduces() const override { return false; }
  CollectiveShape shape(std::size_t bytes, std::size_t size, int) const override {
    const std::size_t count = std::max<std::size_t>(1, bytes / size);
    return {count, count, count, count * size};
  }
  double send_value(int rank, int, const CollectiveShape&, std::size_t j) const override {
    return pattern_value(rank, j);
  }
  double expected_value(int, int, const CollectiveShape&, std::size_t j, ReduceOp) const override {
    return pattern_value(kRoot, j);
  }
  bool receives(int rank, bool in_place) const override { return in_place || rank != kRoot; }
  // Only the root's data is needed: the root may finish first without having arrived last.
  bool waits_for_every_rank() const override { return false; }
  void call(CollectiveComm& comm, const void* send, void* recv, std::size_t count, DType t,
            ReduceOp) const override {
    comm.broadcast(send, recv, count, t, kRoot);
  }
};

CB_REGISTER_CASE(BroadcastCase);

} // namespace cb
