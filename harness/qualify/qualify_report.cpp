#include "qualify/qualify_report.hpp"

#include "core/format.hpp"
#include "qualify/culprits_report.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <vector>

namespace cb {
namespace {

// Outlier and suspect lines printed; the rest are counted (--json has them all).
constexpr std::size_t kShownOutliers = 40;

using nlohmann::json;

std::string with_unit(double value, const std::string& metric) {
  const std::string unit = metric_unit(metric);
  return format_spec_figure(value) + (unit.empty() ? "" : " " + unit);
}

// Left-aligned columns sized to their widest cell; the last column is not padded.
std::string format_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size())
      widths.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], row[c].size());
  }
  std::ostringstream out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size())
        line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out << line << "\n";
  }
  return out.str();
}

std::vector<std::string> check_cells(const CheckRow& row) {
  const Expectation& c = row.check;
  const std::string record = row.record.empty() ? "-" : row.record;
  if (c.kind == CheckKind::data) {
    const std::string measured =
        row.measured ? format_spec_figure(*row.measured) + "/" + format_spec_figure(row.threshold)
                     : "-";
    return {c.id,
            record,
            "data verified",
            "all",
            measured,
            "-",
            std::string(verdict_name(row.verdict)),
            row.note};
  }
  const std::string need =
      (lower_is_better(c.metric) ? "<= " : ">= ") + with_unit(row.threshold, c.metric);
  return {c.id,
          record,
          with_unit(c.expected, c.metric),
          need,
          row.measured ? with_unit(*row.measured, c.metric) : "-",
          row.ratio ? format_ratio(*row.ratio) : "-",
          std::string(verdict_name(row.verdict)),
          row.note};
}

std::string outlier_rules_text(const FleetRules& rules) {
  return "robust z beyond " + format_fixed(rules.robust_z, 1) + " or under " +
         format_ratio(rules.fraction_of_median) + " x the fleet median";
}

json member_json(const FleetMember& m) {
  json j = json::object();
  if (!m.host.empty())
    j["host"] = m.host;
  if (m.device >= 0)
    j["device"] = m.device;
  if (m.rank >= 0)
    j["rank"] = m.rank;
  if (!m.uuid.empty())
    j["uuid"] = m.uuid;
  if (!m.pci_bus_id.empty())
    j["pci_bus_id"] = m.pci_bus_id;
  return j;
}

json optional_number(const std::optional<double>& v) {
  return v ? json(*v) : json();
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// One line per FleetNote: what the second pass could not judge, and what would.
std::string note_text(const FleetNote& n) {
  std::ostringstream out;
  if (n.kind == FleetNoteKind::unresolved) {
    out << plural(n.pairs, "suspect pair") << " of " << n.members << " nodes left unresolved ("
        << (n.beyond_cap ? "beyond the second pass's round cap, or without a known-good partner"
                         : "no known-good partner: more than half of their ends' pairs suspect")
        << "): which end is bad is not known";
    return out.str();
  }
  std::string hosts;
  for (const auto& h : n.hosts)
    hosts += (hosts.empty() ? "" : ", ") + h;
  if (n.hosts_total > n.hosts.size())
    hosts += ", ... (" + std::to_string(n.hosts_total) + " in all)";
  if (n.kind == FleetNoteKind::split) {
    out << "tier split: " << n.hosts_total << " of " << n.members << " nodes"
        << (hosts.empty() ? "" : " (" + hosts + ")") << ", in " << plural(n.groups, "group")
        << ", are slow with every known-good partner but fast with one another ("
        << plural(n.pairs, "suspect pair") << " across): a switch between them and the rest "
        << "(an uplink, an oversubscribed fabric), not the nodes, which were not named";
  } else {
    out << "tier not uniform: " << plural(n.pairs, "pair") << " among " << n.hosts_total << " of "
        << n.members << " nodes" << (hosts.empty() ? "" : " (" + hosts + ")")
        << " beat the typical pair by more than the tolerance; if they are the healthy ones, "
           "the others are slow and were not named (a spec's figure for this case judges them)";
  }
  return out.str();
}

// ", 2 stragglers (warn), 1 note (warn)": the fleet's findings that do not fail it.
std::string warning_summary(const FleetReport& fleet, const char* stragglers_word) {
  std::string out;
  if (fleet.warnings() > 0)
    out += ", " + plural(fleet.warnings(), "straggler") + stragglers_word + " (warn)";
  if (fleet.note_warnings() > 0)
    out += ", " + plural(fleet.note_warnings(), "note") + " (warn)";
  return out;
}

} // namespace

std::string describe_check_row(const CheckRow& row) {
  const std::vector<std::string> cells = check_cells(row);
  std::string text = cells[6] + ": " + cells[0] + (row.record.empty() ? "" : " on " + row.record);
  if (row.check.kind == CheckKind::data)
    text += ", records verified " + cells[4];
  else
    text += ", measured " + cells[4] + ", needs " + cells[3] + " (expected " + cells[2] +
            ", ratio " + cells[5] + ")";
  return row.note.empty() ? text : text + "; " + row.note;
}

std::string format_qualify_text(const QualifyReport& report) {
  std::ostringstream out;
  const Spec& spec = report.spec;
  out << "qualify " << report.results_path << " against "
      << (spec.from_reference ? "reference " + spec.path : "spec " + spec.name);
  if (!spec.title.empty() && !spec.from_reference)
    out << " (" << spec.title << ")";
  out << "\n";
  if (!spec.from_reference)
    out << "spec file: " << spec.path << "\n";
  for (const auto& warning : report.spec_warnings)
    out << "warning: " << warning << "\n";
  out << "\n";
  // The parts to pull first; the outliers below are their evidence.
  if (const std::string culprits = format_culprits_text(report.culprits); !culprits.empty())
    out << culprits << "\n";

  std::vector<std::vector<std::string>> table = {
      {"CHECK", "RECORD", "EXPECTED", "NEED", "MEASURED", "RATIO", "VERDICT", "NOTE"}};
  for (const auto& row : report.rows)
    table.push_back(check_cells(row));
  if (report.fleet_verdict) {
    const std::string summary = culprits_summary(report.culprits) + "; " +
                                std::to_string(report.fleet.fleets_examined) + " fleets judged, " +
                                std::to_string(report.fleet.failing()) + " outliers (evidence)" +
                                warning_summary(report.fleet, "");
    table.push_back({"fleet", summary, "-", "-", "-", "-",
                     std::string(verdict_name(*report.fleet_verdict)),
                     report.fleet.fleets_examined == 0 && !report.culprits.judged()
                         ? "no record has enough peers"
                         : ""});
  }
  out << format_table(table);

  std::set<std::string> shown;
  std::ostringstream sources;
  for (const auto& row : report.rows) {
    if (row.check.source.empty() || !shown.insert(row.check.id).second)
      continue;
    sources << "  " << row.check.id << ": " << row.check.source << "\n";
  }
  if (!spec.from_reference && !shown.empty())
    out << "\nsources:\n" << sources.str();
  if (!report.fleet_verdict) {
    out << "\nfleet: no record has " << spec.fleet.min_peers
        << " or more peers to compare; fleet rules not applied\n";
  }

  if (!report.fleet.outliers.empty()) {
    out << "\noutliers (evidence: " << outlier_rules_text(spec.fleet)
        << "; they warn, a culprit above fails):\n";
    // The named (second pass, stragglers) first; at most kShownOutliers lines, the rest counted:
    // 8,192 GPUs judged at every GPU count can flag thousands, which --json lists whole.
    std::vector<const Outlier*> order;
    for (const auto& o : report.fleet.outliers)
      order.push_back(&o);
    std::stable_sort(order.begin(), order.end(), [](const Outlier* a, const Outlier* b) {
      return (a->by_second_pass || a->by_straggler) > (b->by_second_pass || b->by_straggler);
    });
    if (order.size() > kShownOutliers)
      order.resize(kShownOutliers);
    for (const Outlier* shown_outlier : order) {
      const Outlier& o = *shown_outlier;
      if (o.by_straggler) {
        const std::string share = format_fixed(o.shortest_share * 100, 0) + "%";
        out << "  " << member_label(o.kind, o.who, o.to) << ": straggler, own time "
            << with_unit(o.value, o.metric) << ", the others' median "
            << with_unit(o.fleet_median, o.metric) << " (" << format_ratio(o.ratio)
            << "x; the shortest in " << share << " of samples, " << o.fleet_size << " ranks) in "
            << o.record << " [warns]\n";
        continue;
      }
      if (o.by_second_pass) {
        out << "  " << member_label(o.kind, o.who, o.to) << ": retested at "
            << with_unit(o.value, o.metric) << ", "
            << (lower_is_better(o.metric) ? "lowest pair " : "typical pair ")
            << with_unit(o.fleet_median, o.metric) << " (" << format_ratio(o.ratio)
            << "x; second pass of " << o.fleet_size << " nodes) in " << o.record << " [" << o.metric
            << "]\n";
        continue;
      }
      out << "  " << member_label(o.kind, o.who, o.to) << ": " << with_unit(o.value, o.metric)
          << ", fleet median " << with_unit(o.fleet_median, o.metric) << " ("
          << format_ratio(o.ratio) << "x";
      if (o.robust_z) {
        out << ", robust z " << format_fixed(*o.robust_z, 1);
      } else {
        out << ", MAD 0";
      }
      out << ", " << o.fleet_size << " " << fleet_kind_name(o.kind) << "s) in " << o.record << " ["
          << o.metric << "]\n";
    }
    if (report.fleet.outliers.size() > order.size()) {
      out << "  ... and " << report.fleet.outliers.size() - order.size()
          << " more outliers (qualify --json lists every one)\n";
    }
    if (report.fleet.warnings() > 0) {
      out << "  (a straggler is the rank the others waited for: it warns and does not fail the "
             "fleet; the collective's own checks judge what the wait costs)\n";
    }
    if (!report.fleet.suspects.empty())
      out << "\nsuspects (parts the outliers point at, each record alone; evidence):\n";
    for (std::size_t i = 0; i < report.fleet.suspects.size() && i < kShownOutliers; ++i) {
      const auto& s = report.fleet.suspects[i];
      out << "  " << s.label << ": named by " << s.outliers << " outlier"
          << (s.outliers == 1 ? "" : "s") << (s.via_links ? " among its links" : "") << ", worst "
          << format_ratio(s.worst_ratio) << "x of its fleet median\n";
    }
    if (report.fleet.suspects.size() > kShownOutliers) {
      out << "  ... and " << report.fleet.suspects.size() - kShownOutliers
          << " more suspects (qualify --json lists every one)\n";
    }
  }

  if (!report.fleet.notes.empty()) {
    out << "\nnotes (warn: the second pass could not judge a tier whole):\n";
    for (const auto& n : report.fleet.notes)
      out << "  " << n.record << ": " << note_text(n) << "\n";
  }

  out << "\nverdict: " << verdict_name(report.overall) << " (" << report.passed << " passed, "
      << report.failed << " failed, " << report.inconclusive << " inconclusive";
  if (!report.culprits.culprits.empty()) {
    out << "; " << report.culprits.culprits.size() << " culprit"
        << (report.culprits.culprits.size() == 1 ? "" : "s") << " named";
  }
  const std::string warned = warning_summary(report.fleet, " named");
  if (!warned.empty())
    out << ";" << warned.substr(1);
  out << ")\n";
  return out.str();
}

json qualify_to_json(const QualifyReport& report) {
  const Spec& spec = report.spec;
  json checks = json::array();
  for (const auto& row : report.rows) {
    const Expectation& c = row.check;
    json j = {{"id", c.id},
              {"kind", c.kind == CheckKind::data ? "data" : "threshold"},
              {"verdict", verdict_name(row.verdict)},
              {"note", row.note},
              {"source", c.source}};
    if (!c.what.empty())
      j["what"] = c.what;
    j["record"] = row.record.empty() ? json() : json(row.record);
    j["record_index"] = row.record_index ? json(*row.record_index) : json();
    if (c.kind == CheckKind::data) {
      j["verified"] = row.measured ? json(row.threshold) : json(0);
      j["passed"] = optional_number(row.measured);
    } else {
      j["metric"] = c.metric;
      j["unit"] = metric_unit(c.metric);
      j["measure"] = measure_name(c.measure);
      j["lower_is_better"] = lower_is_better(c.metric);
      j["expected"] = c.expected;
      j["fraction"] = c.fraction;
      j["threshold"] = row.threshold;
      j["measured"] = optional_number(row.measured);
      j["ratio"] = optional_number(row.ratio);
    }
    checks.push_back(std::move(j));
  }
  json outliers = json::array();
  for (const auto& o : report.fleet.outliers) {
    json j = member_json(o.who);
    j["kind"] = fleet_kind_name(o.kind);
    j["label"] = member_label(o.kind, o.who, o.to);
    if (o.kind == FleetKind::link)
      j["to"] = member_json(o.to);
    j["record"] = o.record;
    j["record_index"] = o.record_index;
    j["metric"] = o.metric;
    j["value"] = o.value;
    j["fleet_median"] = o.fleet_median;
    j["ratio"] = o.ratio;
    j["robust_z"] = optional_number(o.robust_z);
    j["fleet_size"] = o.fleet_size;
    j["severity"] = "warn"; // evidence: a culprit fails the fleet, an outlier never alone
    if (o.by_straggler)
      j["shortest_share"] = o.shortest_share;
    json rules = json::array();
    if (o.by_robust_z)
      rules.push_back("robust_z");
    if (o.by_fraction)
      rules.push_back("fraction_of_median");
    if (o.by_second_pass)
      rules.push_back("second_pass");
    if (o.by_straggler)
      rules.push_back("straggler");
    j["rules"] = std::move(rules);
    outliers.push_back(std::move(j));
  }
  json notes = json::array();
  for (const auto& n : report.fleet.notes) {
    json j = {{"kind", fleet_note_kind_name(n.kind)},
              {"record", n.record},
              {"record_index", n.record_index},
              {"pairs", n.pairs},
              {"members", n.members},
              {"severity", "warn"},
              {"text", note_text(n)}};
    if (n.kind == FleetNoteKind::not_uniform || n.kind == FleetNoteKind::split) {
      j["hosts"] = n.hosts;
      j["hosts_total"] = n.hosts_total;
      if (n.kind == FleetNoteKind::split)
        j["groups"] = n.groups;
    } else {
      j["beyond_cap"] = n.beyond_cap;
    }
    notes.push_back(std::move(j));
  }
  json suspects = json::array();
  for (const auto& s : report.fleet.suspects) {
    json j = member_json(s.who);
    j["kind"] = fleet_kind_name(s.kind);
    j["label"] = s.label;
    if (s.kind == FleetKind::link)
      j["to"] = member_json(s.to);
    j["outliers"] = s.outliers;
    j["worst_ratio"] = s.worst_ratio;
    j["via_links"] = s.via_links;
    suspects.push_back(std::move(j));
  }
  return {
      {"verdict", verdict_name(report.overall)},
      {"results", report.results_path},
      {"spec",
       {{"name", spec.name},
        {"title", spec.title},
        {"path", spec.path},
        {"from_reference", spec.from_reference},
        {"backend", spec.backend.empty() ? json() : json(spec.backend)},
        {"devices", spec.devices}}},
      {"counts",
       {{"pass", report.passed}, {"fail", report.failed}, {"inconclusive", report.inconclusive}}},
      {"checks", std::move(checks)},
      {"fleet",
       {{"verdict", report.fleet_verdict ? json(verdict_name(*report.fleet_verdict)) : json()},
        {"fleets_examined", report.fleet.fleets_examined},
        {"warnings", report.fleet.warnings()},
        {"notes", std::move(notes)},
        {"rules",
         {{"robust_z", spec.fleet.robust_z},
          {"fraction_of_median", spec.fleet.fraction_of_median},
          {"min_deviation", spec.fleet.min_deviation},
          {"min_peers", spec.fleet.min_peers}}}}},
      {"culprits", culprits_to_json(report.culprits)},
      {"culprit_notes", report.culprits.notes},
      {"not_weighed", report.culprits.not_weighed},
      {"topology_known", report.culprits.topology_known},
      {"outliers", std::move(outliers)},
      {"suspects", std::move(suspects)},
      {"spec_warnings", report.spec_warnings}};
}

} // namespace cb
