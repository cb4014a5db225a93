#pragma once
// `check --history DIR`: in a directory of runs (oldest first by file name, as the gate names
// them), the run where each case's figure changed (change_point.hpp has the method).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "verdicts/case_matching.hpp"
#include "verdicts/change_point.hpp"
#include "verdicts/run_figures.hpp"

namespace cb {

struct CaseHistory {
  CaseKey key;
  std::string quantity; // time_s or a headline metric; "-" when the runs share none
  Better better = Better::lower;
  std::size_t runs = 0;                // runs with a figure of the case
  std::vector<std::string> changed_at; // the file of the first run after each change point
  std::vector<ChangePoint> changes;
  std::string note; // why no change point could be looked for
};

struct HistoryReport {
  std::vector<std::string> files;
  std::vector<CaseHistory> cases; // in order of first appearance
};

HistoryReport find_history_changes(const RunSide& history, const ChangePointOptions& options);

std::string history_report_markdown(const HistoryReport& report, const ChangePointOptions& options);
nlohmann::json history_report_json(const HistoryReport& report, const ChangePointOptions& options);

} // namespace cb
