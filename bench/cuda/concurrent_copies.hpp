#pragma once
// Copies that every rank runs at once (host_to_device, device_to_host pinned, device_local_copy):
// one record's held streams, released together after a barrier, and the aggregate as the bytes
// of each node's ranks over the span from the earliest start to the latest end of every release
// (cuda/copy_span.hpp), summed over the nodes. The per-GPU figure stays each rank's events.
#include <utility>
#include <vector>

#include "cuda/copy_timing.hpp"
#include "results/record.hpp"
#include "runtime/case_context.hpp"
#include "runtime/communicator.hpp"
#include "runtime/engine.hpp"

namespace cb {

class ConcurrentCopies {
public:
  // Collective over ctx.comm (splits it by node); made once per record, outside the timed batches.
  ConcurrentCopies(const CaseContext& ctx, std::vector<cuda::CopyStream> streams);
  // k copies per stream, in held releases of at most 32 copies; this rank's event seconds. Each
  // release's span over the node's ranks is found right after it (a reduction within the node).
  double timed_batch(int k);
  // Collective over ctx.comm: GB/s of the measurement's kept samples (its last batches), each node
  // its ranks' bytes over the sum of its releases' spans, summed over nodes; 0 when none.
  double aggregate_gbps(const Measurement& m, std::size_t bytes_per_copy) const;

private:
  const CaseContext& ctx_;
  Communicator node_;
  cuda::HeldCopies held_;
  std::vector<std::pair<double, long long>> batches_; // per timed_batch call: node span, copies
};

// The record's whole-group gbps becomes `gbps` (the span aggregate) where it is above 0, and the
// record says how it was found.
void note_span_aggregate(Record& record, double gbps);

} // namespace cb
