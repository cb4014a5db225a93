#include "core/collective_math.hpp"

#include "core/error.hpp"

namespace cb {

Collective collective_from_name(std::string_view name) {
  if (name == "all_reduce")
    return Collective::all_reduce;
  if (name == "all_gather")
    return Collective::all_gather;
  if (name == "reduce_scatter")
    return Collective::reduce_scatter;
  if (name == "broadcast")
    return Collective::broadcast;
  if (name == "reduce")
    return Collective::reduce;
  if (name == "alltoall")
    return Collective::alltoall;
  if (name == "sendrecv")
    return Collective::sendrecv;
  throw InputError(
      "unknown collective '" + std::string(name) +
      "' (allowed: all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, "
      "sendrecv)");
}

std::string_view collective_name(Collective c) {
  switch (c) {
  case Collective::all_reduce:
    return "all_reduce";
  case Collective::all_gather:
    return "all_gather";
  case Collective::reduce_scatter:
    return "reduce_scatter";
  case Collective::broadcast:
    return "broadcast";
  case Collective::reduce:
    return "reduce";
  case Collective::alltoall:
    return "alltoall";
  case Collective::sendrecv:
    return "sendrecv";
  }
  return "?";
}

double busbw_factor(Collective c, int ranks) {
  const double n = ranks;
  switch (c) {
  case Collective::all_reduce:
    return 2.0 * (n - 1) / n;
  case Collective::all_gather:
  case Collective::reduce_scatter:
  case Collective::alltoall:
    return (n - 1) / n;
  case Collective::broadcast:
  case Collective::reduce:
  case Collective::sendrecv:
    return 1.0;
  }
  return 1.0;
}

double gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
}

} // namespace cb
