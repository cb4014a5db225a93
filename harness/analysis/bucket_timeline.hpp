#pragma once
// When the gradient all-reduce of a data-parallel step ends against the end of backward, bucket by
// bucket: backward produces the buckets' gradients one after another; each bucket's all-reduce
// starts once its gradients are complete and the bucket before it is done (one all-reduce at a
// time moves on the link: NCCL runs them in order on one stream, MPI's share the same wire), and
// the optimizer waits for the last one:
//   start(0) = ready(0), start(k) = max(ready(k), end(k-1)), end(k) = start(k) + all_reduce(k)
//   exposed  = max(0, end(last) - backward)
// With the all-reduce after backward (--overlap off) every bucket starts at the end of backward
// at the earliest, so the exposed time is the sum of the buckets' all-reduces. Times count from
// the start of backward. Pure, unit-tested.
#include <vector>

namespace cb {

struct BucketTimeline {
  std::vector<double> start_s, end_s; // per bucket
  double exposed_s = 0;               // communication after the end of backward
};

// ready_s[k]: the backward compute done when bucket k's gradients are complete (non-decreasing,
// at most backward_s); all_reduce_s[k]: its all-reduce alone. The two have the same length.
BucketTimeline bucket_timeline(const std::vector<double>& ready_s,
                               const std::vector<double>& all_reduce_s, double backward_s,
                               bool overlap);

} // namespace cb
