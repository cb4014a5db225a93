#include "verdicts/history_check.hpp"

#include <cmath>
#include <map>

#include "verdicts/report_text.hpp"

namespace cb {
namespace {

using nlohmann::json;

bool worse(const CaseHistory& c, const ChangePoint& p) {
  return c.better == Better::lower ? p.change > 0 : p.change < 0;
}

CaseHistory history_of(const CaseKey& key, const RunSide& history,
                       const ChangePointOptions& options) {
  CaseHistory c;
  c.key = key;
  const std::string id = key.id();
  std::vector<const CaseFigures*> present;
  std::vector<std::size_t> run_of; // series index -> run index
  for (std::size_t i = 0; i < history.runs.size(); ++i) {
    if (const CaseFigures* f = history.runs[i].find(id)) {
      present.push_back(f);
      run_of.push_back(i);
    }
  }
  c.quantity = shared_quantity(present);
  c.better = better_of(c.quantity);
  if (c.quantity.empty()) {
    c.quantity = "-";
    c.note = "no figure every run carries";
    return c;
  }
  std::vector<double> series;
  std::vector<std::size_t> series_run;
  for (std::size_t i = 0; i < present.size(); ++i) {
    const double v = figure_of(*present[i], c.quantity);
    if (std::isfinite(v) && v > 0) {
      series.push_back(v);
      series_run.push_back(run_of[i]);
    }
  }
  c.runs = series.size();
  if (series.size() < 2 * kMinSegment) {
    c.note = std::to_string(series.size()) + " runs: a change point needs " +
             std::to_string(2 * kMinSegment) + " at least";
    return c;
  }
  c.changes = find_change_points(series, options);
  for (const auto& p : c.changes)
    c.changed_at.push_back(history.runs[series_run[p.index]].path);
  return c;
}

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

HistoryReport find_history_changes(const RunSide& history, const ChangePointOptions& options) {
  HistoryReport report;
  std::map<std::string, bool> seen;
  std::vector<CaseKey> order;
  for (const auto& run : history.runs) {
    report.files.push_back(run.path);
    for (const auto& c : run.measured) {
      if (seen.emplace(c.key.id(), true).second)
        order.push_back(c.key);
    }
  }
  for (const auto& key : order)
    report.cases.push_back(history_of(key, history, options));
  return report;
}

std::string history_report_markdown(const HistoryReport& report,
                                    const ChangePointOptions& options) {
  std::string out = "# clusterbench check --history: " + std::to_string(report.files.size()) +
                    " runs, oldest first by file name\n\n";
  out += "Each run gives one figure per case (its median). A change point splits a case's runs "
         "where the t statistic of before against after is largest, is significant when fewer "
         "than " +
         format_p(options.alpha) + " of " + std::to_string(options.permutations) +
         " random orders of the same runs split as clearly, and is listed when the medians "
         "either side differ by more than " +
         format_change(options.threshold).substr(1) + "; each side is then searched again.\n\n";
  MarkdownTable table(
      {"case", "quantity", "changed at run", "before", "after", "change", "p", "direction"});
  std::size_t unchanged = 0, too_few = 0;
  for (const auto& c : report.cases) {
    if (!c.note.empty())
      ++too_few;
    else if (c.changes.empty())
      ++unchanged;
    for (std::size_t i = 0; i < c.changes.size(); ++i) {
      const ChangePoint& p = c.changes[i];
      table.add_row({describe_case(c.key), quantity_label(c.quantity), file_name(c.changed_at[i]),
                     format_quantity(c.quantity, p.before), format_quantity(c.quantity, p.after),
                     format_change(p.change), format_p(p.p_value),
                     worse(c, p) ? "worse" : "better"});
    }
  }
  out += table.empty() ? "No change point in any case.\n" : table.str();
  out += "\n" + std::to_string(unchanged) + " cases without a change point";
  if (too_few > 0) {
    out += "; " + std::to_string(too_few) + " with too few runs or no shared figure:";
    for (const auto& c : report.cases) {
      if (!c.note.empty())
        out += "\n- " + describe_case(c.key) + ": " + c.note;
    }
  }
  return out + "\n";
}

json history_report_json(const HistoryReport& report, const ChangePointOptions& options) {
  json cases = json::array();
  for (const auto& c : report.cases) {
    json j = key_to_json(c.key);
    j["quantity"] = c.quantity;
    j["better"] = to_string(c.better);
    j["runs"] = c.runs;
    json changes = json::array();
    for (std::size_t i = 0; i < c.changes.size(); ++i) {
      const ChangePoint& p = c.changes[i];
      changes.push_back({{"run", c.changed_at[i]},
                         {"index", p.index},
                         {"before", p.before},
                         {"after", p.after},
                         {"change_pct", p.change * 100},
                         {"p_value", p.p_value},
                         {"direction", worse(c, p) ? "worse" : "better"}});
    }
    j["change_points"] = std::move(changes);
    if (!c.note.empty())
      j["note"] = c.note;
    cases.push_back(std::move(j));
  }
  return {{"history", report.files},
          {"method", "max-t split, permutation test, binary segmentation"},
          {"alpha", options.alpha},
          {"threshold", options.threshold},
          {"permutations", options.permutations},
          {"cases", std::move(cases)}};
}

} // namespace cb
