#pragma once
// The flags of `clusterbench run`, parsed and validated into a RunConfig. Everything that can be
// checked without MPI is checked here, before any job starts.
#include <string>
#include <vector>

#include "core/args.hpp"
#include "runtime/run_config.hpp"

namespace cb {

// `command` names the command whose help it is (plan takes run's flags too).
ArgParser run_argument_parser(const std::string& command = "run");
// Throws InputError naming the flag. Suites and cases are checked against the registered cases.
RunConfig run_config_from(const ArgParser& args);
// Checks that the results file can be written (creating results/ for the default path).
void check_output_path(const std::string& path, bool is_default);

} // namespace cb
