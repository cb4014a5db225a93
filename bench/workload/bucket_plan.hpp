#pragma once
// Gradient buckets as PyTorch DDP makes them: the gradients in reverse order of the layers (the
// order backward produces them) cut into buckets of --bucket-bytes, each all-reduced as soon as
// the last layer it covers has its gradient. Pure functions, unit-tested.
#include <cstdint>
#include <vector>

namespace cb {

// The most buckets a step may have: each is one nonblocking all-reduce in flight.
inline constexpr std::uint64_t kMaxBuckets = 4096;

struct GradientBucket {
  std::uint64_t offset = 0; // first element in the gradient buffer (layer l at l * layer_elements)
  std::uint64_t count = 0;  // elements
  int ready_after = 0;      // the layer whose backward completes the bucket
};

// Buckets of at most bucket_bytes / element_bytes elements (at least one), from the end of the
// buffer backwards; the first is all-reduced first. Every element is in exactly one bucket.
std::vector<GradientBucket> plan_buckets(int layers, std::uint64_t layer_elements,
                                         std::uint64_t bucket_bytes, std::uint64_t element_bytes);

// How many buckets plan_buckets makes, without making them (for the input check).
std::uint64_t bucket_count(int layers, std::uint64_t layer_elements, std::uint64_t bucket_bytes,
                           std::uint64_t element_bytes);

// The same for layers of different sizes: layer l holds layer_elements[l] elements from the sum
// of the ones before it.
std::vector<GradientBucket> plan_buckets(const std::vector<std::uint64_t>& layer_elements,
                                         std::uint64_t bucket_bytes, std::uint64_t element_bytes);
std::uint64_t bucket_count(const std::vector<std::uint64_t>& layer_elements,
                           std::uint64_t bucket_bytes, std::uint64_t element_bytes);

} // namespace cb
