#include "concurrent_copies.hpp"

#include <algorithm>

#include "cuda/copy_span.hpp"

namespace cb {

ConcurrentCopies::ConcurrentCopies(const CaseContext& ctx, std::vector<cuda::CopyStream> streams)
    : ctx_(ctx), node_(ctx.comm.split_shared()),
      held_(std::move(streams), [&comm = ctx.comm] { comm.barrier(); }) {}

double ConcurrentCopies::timed_batch(int k) {
  constexpr int kRound = 32; // the launch queue must hold a round
  double seconds = 0, span = 0;
  const long long copies = k;
  while (k > 0) {
    const int n = std::min(k, kRound);
    const std::vector<double> each = held_.time(1, n);
    if (!each.empty())
      seconds += *std::max_element(each.begin(), each.end());
    // This release's span over the node's ranks (one clock within a node): -(earliest start) and
    // the latest end, as two maxima.
    const std::vector<cuda::CopyWindow>& mine = held_.last_windows();
    const double start = mine.empty() ? 0 : mine.front().start_s;
    const double end = mine.empty() ? 0 : mine.back().end_s;
    span += node_.max(end) + node_.max(-start);
    k -= n;
  }
  batches_.emplace_back(span, copies);
  return seconds;
}

double ConcurrentCopies::aggregate_gbps(const Measurement& m, std::size_t bytes_per_copy) const {
  // The engine's samples are its last batches (warm-up and calibration come first).
  const std::size_t kept = std::min(m.samples_s.size(), batches_.size());
  double span = 0;
  long long copies = 0;
  for (std::size_t i = batches_.size() - kept; i < batches_.size(); ++i) {
    span += batches_[i].first;
    copies += batches_[i].second;
  }
  const double node_gbps = cuda::span_gbps(node_.size(), bytes_per_copy, copies, span);
  return ctx_.comm.sum(node_.rank() == 0 ? node_gbps : 0.0);
}

void note_span_aggregate(Record& record, double gbps) {
  if (!(gbps > 0))
    return;
  record.metrics["gbps"] = gbps;
  record.extra["gbps_is"] = "every rank's bytes over the span from the earliest start to the "
                            "latest end of each release on its node (one host clock per node), "
                            "summed over the nodes; per_gpu figures are each GPU's own events";
}

} // namespace cb
