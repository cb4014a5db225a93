#pragma once
// Everything a report says about one results file, before it is formatted: the run, the record
// counts, the families with their curves and models, and the headline.
#include <string>
#include <vector>

#include "report/curve_report.hpp"
#include "report/headline.hpp"

namespace cb::report {

struct RecordCounts {
  std::size_t total = 0, ok = 0, noisy = 0, skipped = 0, failed = 0;
};

struct ReportData {
  std::string source; // the results file
  nlohmann::json run;
  RecordCounts counts;
  std::vector<FamilyReport> families;
  Headline headline;
  ReportOptions options;
};

RecordCounts count_records(const ResultsFile& results);

// Throws InputError naming `source` when the results hold no records.
ReportData build_report_data(const ResultsFile& results, const std::string& source,
                             const ReportOptions& options);

// Where the run happened, in one line: "n1 and 1 more host, Intel(R) Xeon(R) ... x 8, host
// backend".
std::string describe_run(const nlohmann::json& run);

} // namespace cb::report
