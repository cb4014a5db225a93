#pragma once
// `clusterbench run --list`: every selected case with its axes (type, default, family flag, help)
// and the instances this run would make with these flags on this backend; printed from the same
// declarations the engine expands, so what it says is what a run does.
#include <ostream>

#include "runtime/run_config.hpp"

namespace cb {

// `config.backend_kind` is the resolved backend (host, cuda). Shows at most `shown_instances` of
// each case's instances, then how many more.
void print_case_list(std::ostream& out, const RunConfig& config, std::size_t shown_instances = 12);

} // namespace cb
