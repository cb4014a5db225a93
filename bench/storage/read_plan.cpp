#include "storage/read_plan.hpp"

#include <algorithm>
#include <random>

namespace cb {

std::vector<std::uint64_t> sequential_offsets(std::uint64_t data_bytes, std::uint64_t block_bytes,
                                              std::uint64_t header_bytes) {
  std::vector<std::uint64_t> out;
  if (block_bytes == 0)
    return out;
  for (std::uint64_t off = 0; off + block_bytes <= data_bytes; off += block_bytes) {
    out.push_back(header_bytes + off);
  }
  return out;
}

std::vector<std::uint64_t> random_offsets(std::uint64_t data_bytes, std::uint64_t block_bytes,
                                          std::uint64_t header_bytes, std::uint64_t seed) {
  std::vector<std::uint64_t> out = sequential_offsets(data_bytes, block_bytes, header_bytes);
  std::mt19937_64 rng(seed);
  // Fisher-Yates with the generator's raw output: the same order on every standard library.
  for (std::size_t i = out.size(); i > 1; --i)
    std::swap(out[i - 1], out[rng() % i]);
  return out;
}

DoneRates done_rates(const std::vector<double>& bytes, const std::vector<double>& seconds) {
  DoneRates r;
  if (bytes.empty() || bytes.size() != seconds.size())
    return r;
  double total = 0, slowest = 0, first = seconds.front();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    total += bytes[i];
    slowest = std::max(slowest, seconds[i]);
    first = std::min(first, seconds[i]);
  }
  if (first <= 0 || slowest <= 0)
    return r;
  double read_by_first = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    read_by_first += bytes[i] * std::min(1.0, first / seconds[i]);
  }
  r.first_done_gbps = read_by_first / first / 1e9;
  r.last_done_gbps = total / slowest / 1e9;
  return r;
}

} // namespace cb
