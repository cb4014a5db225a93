#pragma once
// Turns a report's data into the document both Markdown and HTML render: the headline first
// (what limits scaling, the predicted training step and its cost), then one section per family.
#include <string>
#include <vector>

#include "report/report_data.hpp"
#include "report/report_document.hpp"

namespace cb::report {

struct PlotSet {
  bool requested = false;
  std::vector<std::string> files; // PNGs, placed in the section of the family they show
  std::string note;               // why there are none, and how to get them
};

Document build_report_document(const ReportData& data, const PlotSet& plots = {});

// The headline's sentences, also used by the JSON output.
std::string limit_sentence(const Headline& headline);
std::string describe_workload(const PredictionConfig& step);

// The family a figure belongs to by its file name (efficiency_<suite>, busbw_vs_size,
// link_matrix_*, storage_readers), or "" for others.
std::string plot_family(const std::string& path);

} // namespace cb::report
