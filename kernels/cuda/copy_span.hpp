#pragma once
// The aggregate of copies that every rank of a node runs at once, from where they ran on the
// node's one clock (host code, unit-tested). Per-GPU rate x ranks assumes the copies overlapped
// exactly; the bytes of the node's ranks over the span from the earliest start to the latest end
// is what the node moved, whatever the overlap. steady_clock (CLOCK_MONOTONIC on Linux) is one
// clock for every process of a node, not across nodes: a node's span is found within the node and
// the nodes' aggregates are summed.
#include <cstddef>

namespace cb::cuda {

struct CopyWindow {
  double start_s = 0; // on the host's steady clock
  double end_s = 0;
  bool operator==(const CopyWindow&) const = default;
};

// Where a rank's timed copies ran: they ended when the host saw the stop event complete
// (`completed_s`) and lasted what the events say; never before the release (`released_s`), since
// the spin kernel's exit and the untimed warm-up copy come first.
CopyWindow timed_window(double released_s, double completed_s, double event_seconds);

// GB/s of `ranks` ranks each copying `copies` x `bytes` within `span_s` seconds; 0 when the span
// is not positive (nothing measured).
double span_gbps(int ranks, std::size_t bytes, long long copies, double span_s);

} // namespace cb::cuda
