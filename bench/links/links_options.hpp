#pragma once
// The links family's options (runtime/family_option.hpp): what its cases and its planner estimate
// read, what `run` parses and what `run --help` prints, from one declaration each.
#include <string>

#include "runtime/family_option.hpp"

namespace cb {

// Given or not: without it the schedule is chosen by the node count (diagnosis/schedules.hpp
// pair_schedule_for: the screen from 16 nodes), so the case reads given().value_or("").
inline const FamilyOption<std::string> kPairs{
    OptionDeclaration::word("pairs", "HOW", {"screen", "rounds", "sequential"})
        .described("across nodes: screen (sublinear: about six rounds at any size), rounds (all "
                   "disjoint pairs of a round at once, n-1 rounds) or sequential (one pair at a "
                   "time, to isolate congestion); within a node always rounds or sequential")
        .computed_default("screen from 16 nodes, rounds below")};

inline const FamilyOption<std::string> kTopology{
    OptionDeclaration::path("topology", "FILE")
        .described("the fabric's leaf switches (Slurm topology.conf or a JSON map host -> leaf) "
                   "the screen groups nodes by")
        .computed_default("none: ceil(sqrt(nodes)) groups")};

} // namespace cb
