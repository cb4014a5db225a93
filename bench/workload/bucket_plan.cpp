#include "workload/bucket_plan.hpp"

#include <algorithm>
#include <climits>

namespace cb {
namespace {

// Elements per bucket: an MPI count is an int.
std::uint64_t bucket_elements(std::uint64_t bucket_bytes, std::uint64_t element_bytes) {
  return std::clamp<std::uint64_t>(bucket_bytes / element_bytes, 1, INT_MAX);
}

} // namespace

std::uint64_t bucket_count(int layers, std::uint64_t layer_elements, std::uint64_t bucket_bytes,
                           std::uint64_t element_bytes) {
  const std::uint64_t total = static_cast<std::uint64_t>(std::max(layers, 0)) * layer_elements;
  const std::uint64_t per = bucket_elements(bucket_bytes, element_bytes);
  return (total + per - 1) / per;
}

std::vector<GradientBucket> plan_buckets(int layers, std::uint64_t layer_elements,
                                         std::uint64_t bucket_bytes, std::uint64_t element_bytes) {
  std::vector<GradientBucket> buckets;
  if (layers <= 0 || layer_elements == 0)
    return buckets;
  const std::uint64_t per = bucket_elements(bucket_bytes, element_bytes);
  std::uint64_t end = static_cast<std::uint64_t>(layers) * layer_elements;
  while (end > 0) {
    GradientBucket b;
    b.count = std::min(per, end);
    b.offset = end - b.count;
    // Backward runs from the last layer down: the bucket's lowest layer is the last it waits for.
    b.ready_after = static_cast<int>(b.offset / layer_elements);
    buckets.push_back(b);
    end = b.offset;
  }
  return buckets;
}

std::uint64_t bucket_count(const std::vector<std::uint64_t>& layer_elements,
                           std::uint64_t bucket_bytes, std::uint64_t element_bytes) {
  std::uint64_t total = 0;
  for (std::uint64_t e : layer_elements)
    total += e;
  const std::uint64_t per = bucket_elements(bucket_bytes, element_bytes);
  return (total + per - 1) / per;
}

std::vector<GradientBucket> plan_buckets(const std::vector<std::uint64_t>& layer_elements,
                                         std::uint64_t bucket_bytes, std::uint64_t element_bytes) {
  // first[l]: the first element of layer l.
  std::vector<std::uint64_t> first;
  std::uint64_t end = 0;
  for (std::uint64_t e : layer_elements) {
    first.push_back(end);
    end += e;
  }
  std::vector<GradientBucket> buckets;
  const std::uint64_t per = bucket_elements(bucket_bytes, element_bytes);
  while (end > 0) {
    GradientBucket b;
    b.count = std::min(per, end);
    b.offset = end - b.count;
    // The layer holding the bucket's first element: backward reaches it last.
    const auto holder = std::upper_bound(first.begin(), first.end(), b.offset) - 1;
    b.ready_after = static_cast<int>(holder - first.begin());
    buckets.push_back(b);
    end = b.offset;
  }
  return buckets;
}

} // namespace cb
