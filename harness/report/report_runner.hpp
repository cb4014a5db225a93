#pragma once
// `clusterbench report` end to end: load, analyse, draw, write. The command file only parses.
#include <ostream>

#include "report/report_options.hpp"

namespace cb::report {

// Markdown (or JSON) on `out`; the one line saying why there are no plots on `err`. Throws
// InputError for bad input (no records, an unwritable --html or --plots).
int run_report(const ReportCommandOptions& options, std::ostream& out, std::ostream& err);

} // namespace cb::report
