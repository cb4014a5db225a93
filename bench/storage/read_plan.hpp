#pragma once
// Which blocks a pass reads and what the passes add up to. Pure functions, unit-tested.
#include <cstdint>
#include <vector>

namespace cb {

// File offsets of every whole block of the data region (after the header), in order.
std::vector<std::uint64_t> sequential_offsets(std::uint64_t data_bytes, std::uint64_t block_bytes,
                                              std::uint64_t header_bytes);
// The same blocks in a random order (each once per pass, as fio's random map does), fixed by seed.
std::vector<std::uint64_t> random_offsets(std::uint64_t data_bytes, std::uint64_t block_bytes,
                                          std::uint64_t header_bytes, std::uint64_t seed);

// elbencho's two aggregates from each rank's bytes per pass and its own seconds for it, each rank
// reading at its own steady rate: "first done" = the bytes all ranks had read when the fastest
// finished / that time (= Σ of the rates); "last done" = Σ bytes / the slowest time. GB/s.
struct DoneRates {
  double first_done_gbps = 0;
  double last_done_gbps = 0;
};
DoneRates done_rates(const std::vector<double>& bytes, const std::vector<double>& seconds);

} // namespace cb
