#pragma once
// The files `check` and `compare` read: clusterbench results (validated by load_results) or
// Google Benchmark JSON, told apart by content ("context" + "benchmarks" keys), not by name.
#include <string>

#include "results/record.hpp"

namespace cb {

// Throws InputError naming the file (and the field) when it cannot be read as either.
ResultsFile load_verdict_input(const std::string& path);

} // namespace cb
