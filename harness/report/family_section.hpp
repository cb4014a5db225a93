#pragma once
// The report's section of one family (harness/report/report_builder.cpp puts them after the
// headline), and the few texts the headline shares with it.
#include <string>
#include <vector>

#include "analysis/fit_warnings.hpp"
#include "report/report_builder.hpp"
#include "report/report_data.hpp"
#include "report/report_document.hpp"

namespace cb::report {

// A fit's "needs at least N points / GPU counts" is said once for the whole report (the "Not
// fitted" paragraph at its end), not beside every curve of a run with too few counts.
struct Unfitted {
  std::size_t single_count = 0;  // curves measured at one GPU count
  std::vector<CurveLawNote> too_few; // the laws refused for too few GPU counts, per curve
};

// One family's section; what its curves could not fit is added to `unfitted`, said once at the
// report's end.
void add_family(Document& doc, const FamilyReport& family, const ReportData& data,
                const PlotSet& plots, Unfitted& unfitted);

// "rank 5 (n2 device 1)".
std::string straggler_label(const StragglerRank& s);
// An efficiency with where it comes from ("81.2 % USL"), "-" when there is none.
std::string estimate_text(const EfficiencyEstimate& e);
// "efficiency at 64", a column header of the outlook.
std::string outlook_header(const std::string& what, int gpus);

} // namespace cb::report
