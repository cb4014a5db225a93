#pragma once
// `clusterbench report` end to end: load, analyse, draw, write. The command file only parses.
#include <functional>
#include <ostream>

#include "report/report_data.hpp"
#include "report/report_options.hpp"
#include "results/record.hpp"

namespace cb::report {

// What else is made of the report once it is written (an export); receives the results and the
// report's data.
using ReportExport = std::function<void(const ResultsFile&, const ReportData&)>;

// Markdown (or JSON) on `out`; the one line saying why there are no plots on `err`; then
// `also`, when given. Throws InputError for bad input (no records, an unwritable --html or
// --plots).
int run_report(const ReportCommandOptions& options, std::ostream& out, std::ostream& err,
               const ReportExport& also = {});

} // namespace cb::report
