#pragma once
// Bandwidth accounting of collectives, with the definitions of nccl-tests (doc/PERFORMANCE.md):
// algbw = bytes / time, busbw = algbw * factor(n).
#include <cstdint>
#include <string>
#include <string_view>

namespace cb {

enum class Collective {
  all_reduce,
  all_gather,
  reduce_scatter,
  broadcast,
  reduce,
  alltoall,
  sendrecv
};

Collective collective_from_name(std::string_view name); // throws InputError for unknown names
std::string_view collective_name(Collective c);
// all_reduce 2(n-1)/n; all_gather, reduce_scatter, alltoall (n-1)/n; broadcast, reduce, sendrecv 1.
// For n == 1 the factor is 0 for the first two groups (nothing crosses a link).
double busbw_factor(Collective c, int ranks);
// Bandwidth in GB/s (1e9 bytes) of `bytes` moved in `seconds`.
double gbps(double bytes, double seconds);

} // namespace cb
