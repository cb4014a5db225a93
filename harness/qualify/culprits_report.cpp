#include "qualify/culprits_report.hpp"

#include <sstream>

#include "core/format.hpp"
#include "results/metric_table.hpp"

namespace cb {
namespace {

using nlohmann::json;

// Culprit and note lines printed; --json has them all.
constexpr std::size_t kShownCulprits = 40;
constexpr std::size_t kShownNotes = 20;

std::string figure_text(const CulpritFigure& f) {
  const std::string value = format_figure_compact(f.value, 4);
  const std::string where = f.from == f.to
                                ? f.from + (f.gpu >= 0 ? " GPU " + std::to_string(f.gpu) : "")
                                : f.from + " -> " + f.to;
  return where + " " + value + " " + f.metric;
}

} // namespace

std::string culprits_summary(const CulpritReport& r) {
  return std::to_string(r.culprits.size()) + " culprit" + (r.culprits.size() == 1 ? "" : "s") +
         " from " + std::to_string(r.figures) + " figures of " + std::to_string(r.sources) +
         " record" + (r.sources == 1 ? "" : "s");
}

std::string format_culprits_text(const CulpritReport& r) {
  std::ostringstream out;
  if (!r.culprits.empty()) {
    out << "culprits (the fewest parts that explain the slow figures; each fails the fleet):\n";
    for (std::size_t i = 0; i < r.culprits.size() && i < kShownCulprits; ++i) {
      const FleetCulprit& c = r.culprits[i];
      out << "  " << c.kind << ": " << culprit_label(c) << ", " << format_ratio(c.factor)
          << "x typical on " << c.figures << " figures (" << c.slow_figures << " slow)";
      if (!c.evidence.empty())
        out << ", slowest " << figure_text(c.evidence.front());
      std::string records;
      for (const auto& record : c.records)
        records += (records.empty() ? "" : ", ") + record;
      if (!records.empty())
        out << "; shown by " << records;
      out << "\n";
    }
    if (r.culprits.size() > kShownCulprits)
      out << "  ... and " << r.culprits.size() - kShownCulprits
          << " more culprits (qualify --json lists every one)\n";
  } else if (r.judged()) {
    out << "culprits: none (" << r.figures << " figures of " << r.sources << " records judged)\n";
  }
  if (!r.notes.empty()) {
    out << "culprit notes (warn: slow figures no single fault explains):\n";
    for (std::size_t i = 0; i < r.notes.size() && i < kShownNotes; ++i)
      out << "  " << r.notes[i] << "\n";
    if (r.notes.size() > kShownNotes)
      out << "  ... and " << r.notes.size() - kShownNotes << " more notes\n";
  }
  if (!r.not_weighed.empty()) {
    out << "not weighed (too few samples, noisy, or not judged: they convict nothing): ";
    for (std::size_t i = 0; i < r.not_weighed.size() && i < kShownNotes; ++i)
      out << (i == 0 ? "" : "; ") << r.not_weighed[i];
    if (r.not_weighed.size() > kShownNotes)
      out << "; ... (" << r.not_weighed.size() << " in all)";
    out << "\n";
  }
  return out.str();
}

json culprits_to_json(const CulpritReport& r) {
  json culprits = json::array();
  for (const FleetCulprit& c : r.culprits) {
    json evidence = json::array();
    for (const CulpritFigure& f : c.evidence) {
      evidence.push_back({{"record", f.record},
                          {"record_index", f.record_index},
                          {"from", f.from},
                          {"to", f.to},
                          {"gpu", f.gpu >= 0 ? json(f.gpu) : json()},
                          {"value", f.value},
                          {"metric", f.metric}});
    }
    culprits.push_back({{"kind", c.kind},
                        {"label", culprit_label(c)},
                        {"host", c.host.empty() ? json() : json(c.host)},
                        {"gpu", c.gpu >= 0 ? json(c.gpu) : json()},
                        {"pci_bus_id", c.pci_bus_id.empty() ? json() : json(c.pci_bus_id)},
                        {"uuid", c.uuid.empty() ? json() : json(c.uuid)},
                        {"direction", c.direction.empty() ? json() : json(c.direction)},
                        {"hosts", c.hosts},
                        {"hosts_total", c.hosts_total},
                        {"switch", c.switch_name.empty() ? json() : json(c.switch_name)},
                        {"factor", c.factor},
                        {"figures", c.figures},
                        {"slow_figures", c.slow_figures},
                        {"records", c.records},
                        {"evidence", std::move(evidence)}});
  }
  return culprits;
}

} // namespace cb
