#pragma once
// The collectives family's options (runtime/family_option.hpp): what its cases read, what `run`
// parses and what `run --help` prints, from one declaration each.
#include <string>
#include <vector>

#include "runtime/family_option.hpp"

namespace cb {

inline const FamilyOption<std::string> kPlacement{
    OptionDeclaration::word("placement", "WHICH", {"both", "out", "in"})
        .described("out-of-place and/or in-place records of each instance: both, out or in")
        .defaults("both")};

inline const FamilyOption<bool> kCudaGraph{
    OptionDeclaration::flag("cuda-graph")
        .described("time each batch of k operations as one captured CUDA graph launch "
                   "(nccl-tests -G) instead of k stream launches; cuda backend only; with "
                   "--single-process only on one rank")};

// The placements --placement asks for, out of place first: false = out of place.
inline std::vector<bool> placements(const RunConfig& config) {
  const std::string which = kPlacement.value(config);
  if (which == "out")
    return {false};
  if (which == "in")
    return {true};
  return {false, true};
}

} // namespace cb
