#include "qualify/culprits.hpp"

#include <algorithm>
#include <set>

#include "core/format.hpp"
#include "diagnosis/diagnosis.hpp"
#include "diagnosis/reference.hpp"
#include "qualify/evidence.hpp"
#include "qualify/record_match.hpp"

namespace cb {
namespace {

// Leaves of the job's hosts: the topology's, else a screen's groups, else one.
struct Leaves {
  std::vector<int> of_node;
  std::vector<std::string> names;
  bool topology_known = false;
};

Leaves place(const Evidence& e, const Topology* topology) {
  Leaves leaves;
  if (topology != nullptr) {
    HostPlacement placed = place_hosts(*topology, e.hosts);
    leaves.of_node = std::move(placed.leaf_of_node);
    leaves.names = std::move(placed.leaf_names);
    leaves.topology_known = true;
  } else if (!e.screen_group_of_node.empty()) {
    leaves.of_node = e.screen_group_of_node;
    leaves.names = e.screen_group_names;
  } else {
    leaves.of_node.assign(e.hosts.size(), 0);
  }
  return leaves;
}

CulpritFigure figure_of(const Evidence& e, const Observation& o) {
  const SourceInfo& s = e.sources[o.source];
  CulpritFigure f;
  f.record_index = s.record_index;
  f.record = s.record;
  f.from = e.hosts[o.src];
  f.to = e.hosts[o.dst];
  f.gpu = o.rail == kNoRail ? -1 : o.rail;
  f.value = s.rate_of && o.value > 0 ? 1.0 / o.value : o.value;
  f.metric = s.metric;
  return f;
}

std::string kind_of(const Culprit& c, const Evidence& e) {
  if (c.kind != ComponentKind::rail)
    return component_kind_name(c.kind);
  // A GPU slot named on figures of that GPU alone is the GPU; on figures between nodes, its rail.
  const bool one_end =
      !c.evidence.empty() && std::all_of(c.evidence.begin(), c.evidence.end(), [&](std::size_t i) {
        return e.observations[i].src == e.observations[i].dst;
      });
  return one_end ? "gpu" : "rail";
}

FleetCulprit culprit_of(const Culprit& c, const Evidence& e, const Leaves& leaves,
                        const ResultsFile& results) {
  FleetCulprit out;
  out.kind = kind_of(c, e);
  out.factor = c.factor;
  out.figures = c.figures;
  out.slow_figures = c.slow_figures;
  if (c.host >= 0)
    out.host = e.hosts[static_cast<std::size_t>(c.host)];
  if (c.kind == ComponentKind::node && c.direction != Direction::both)
    out.direction = direction_name(c.direction);
  if (c.gpu >= 0) {
    out.gpu = c.gpu;
    if (auto it = e.gpus.find({c.host, c.gpu}); it != e.gpus.end()) {
      out.pci_bus_id = it->second.pci_bus_id;
      out.uuid = it->second.uuid;
    }
  }
  if (c.kind == ComponentKind::uplink) {
    if (leaves.topology_known && static_cast<std::size_t>(c.leaf) < leaves.names.size())
      out.switch_name = leaves.names[static_cast<std::size_t>(c.leaf)];
    for (std::size_t h = 0; h < leaves.of_node.size(); ++h) {
      if (leaves.of_node[h] != c.leaf)
        continue;
      ++out.hosts_total;
      if (out.hosts.size() < FleetCulprit::kListedHosts)
        out.hosts.push_back(e.hosts[h]);
    }
  }
  std::set<std::size_t> shown_records;
  for (std::size_t i : c.evidence) {
    out.evidence.push_back(figure_of(e, e.observations[i]));
    if (shown_records.insert(out.evidence.back().record_index).second)
      out.records.push_back(out.evidence.back().record);
  }
  // A straggler on the culprit's host supports it; it never names a part by itself.
  for (const Record& r : results.records) {
    if (r.straggler && !out.host.empty() && r.straggler->host == out.host)
      out.records.push_back(describe_record(r) + " (straggler)");
  }
  return out;
}

// Slow figures of a record that no culprit explains: too few to name a part, said so.
void note_unexplained(const Diagnosis& d, const Evidence& e, std::vector<std::string>& notes) {
  for (std::size_t s = 0; s < d.unexplained_slow_by_source.size() && s < e.sources.size(); ++s) {
    const std::size_t slow = d.unexplained_slow_by_source[s];
    if (slow == 0)
      continue;
    const auto& o = e.observations[static_cast<std::size_t>(d.slowest_unexplained_by_source[s])];
    const CulpritFigure f = figure_of(e, o);
    const std::string value = format_figure_compact(f.value, 4) + " " + f.metric;
    const std::string where =
        f.from == f.to ? "host " + f.from + (f.gpu >= 0 ? " GPU " + std::to_string(f.gpu) : "")
                       : "host " + f.from + " -> host " + f.to;
    notes.push_back(e.sources[s].record + ": " + std::to_string(slow) + " slow figure" +
                    (slow == 1 ? "" : "s") + " that no culprit explains (the slowest: " + where +
                    ", " + value + "): " +
                    (e.sources[s].one_end
                         ? "within what the fleet's noise allows over every part judged"
                         : "too few to tell its sender from its receiver") +
                    "; nothing is named for them");
  }
}

// Without a topology or a screen's groups, nodes behind one slow switch are slow with every
// partner outside and fast with one another: named as nodes, they are a split (a switch between
// them and the rest, not the nodes), which a note says instead, as the second pass's rule did.
void note_split(const Diagnosis& d, const Evidence& e, std::vector<FleetCulprit>& culprits,
                std::vector<std::string>& notes) {
  std::set<std::uint32_t> named;
  for (const Culprit& c : d.culprits) {
    if (c.kind == ComponentKind::node && c.direction == Direction::both)
      named.insert(static_cast<std::uint32_t>(c.host));
  }
  if (named.size() < 2)
    return;
  std::vector<std::vector<double>> outside(e.sources.size()), inside(e.sources.size());
  for (const Observation& o : e.observations) {
    if (o.src == o.dst)
      continue;
    const bool a = named.count(o.src) > 0, b = named.count(o.dst) > 0;
    if (!a && !b)
      outside[o.source].push_back(o.value);
    else if (a && b)
      inside[o.source].push_back(o.value);
  }
  std::vector<double> ratios;
  for (std::size_t s = 0; s < e.sources.size(); ++s) {
    if (inside[s].empty() || outside[s].empty())
      continue;
    const double typical = median_of(outside[s]);
    for (double v : inside[s])
      ratios.push_back(typical > 0 ? v / typical : 0);
  }
  if (ratios.size() < static_cast<std::size_t>(kMinEvidence) ||
      median_of(ratios) < DiagnosisSettings{}.tolerance)
    return;
  std::string hosts;
  std::size_t listed = 0;
  for (std::uint32_t h : named) {
    if (listed++ < FleetCulprit::kListedHosts)
      hosts += (hosts.empty() ? "" : ", ") + e.hosts[h];
  }
  culprits.erase(
      std::remove_if(culprits.begin(), culprits.end(),
                     [](const FleetCulprit& c) { return c.kind == "node" && c.direction.empty(); }),
      culprits.end());
  notes.push_back("split: " + std::to_string(named.size()) + " nodes (" + hosts +
                  (named.size() > FleetCulprit::kListedHosts ? ", ..." : "") +
                  ") are slow with every node outside them but fast with one another: a switch "
                  "between them and the rest (an uplink, an oversubscribed fabric), not the "
                  "nodes, which are not named (give --topology to name the switch)");
}

} // namespace

CulpritReport find_culprits(const ResultsFile& results, const std::string& path,
                            const Topology* topology, int min_peers) {
  CulpritReport report;
  Evidence e = gather_evidence(results, path, min_peers);
  report.not_weighed = std::move(e.not_weighed);
  report.sources = e.sources.size();
  report.topology_known = topology != nullptr;
  if (e.observations.empty() || e.hosts.empty())
    return report;
  const Leaves leaves = place(e, topology);
  DiagnosisSettings settings;
  settings.topology_known = leaves.topology_known;
  settings.host_names = e.hosts;
  settings.leaf_names = leaves.names;
  const int nodes = static_cast<int>(e.hosts.size());
  // One node alone is judged against itself: a second keeps diagnose() from declining it.
  const Diagnosis d = diagnose(e.observations, e.weights, std::max(nodes, 2), e.rails,
                               nodes >= 2 ? leaves.of_node : std::vector<int>{0, 0}, settings);
  report.figures = d.figures;
  report.z = d.z;
  report.components = static_cast<std::size_t>(nodes) * (3 + static_cast<std::size_t>(e.rails));
  for (const Culprit& c : d.culprits)
    report.culprits.push_back(culprit_of(c, e, leaves, results));
  report.notes = d.notes;
  if (!leaves.topology_known && e.screen_group_of_node.empty())
    note_split(d, e, report.culprits, report.notes);
  note_unexplained(d, e, report.notes);
  return report;
}

std::string culprit_label(const FleetCulprit& c) {
  if (c.kind == "uplink") {
    return "uplink of " +
           (c.switch_name.empty() ? std::string("a leaf") : "switch " + c.switch_name) + " (" +
           std::to_string(c.hosts_total) + " host" + (c.hosts_total == 1 ? "" : "s") + ")";
  }
  std::string gpu;
  if (c.gpu >= 0) {
    gpu = "GPU " + std::to_string(c.gpu);
    if (!c.pci_bus_id.empty())
      gpu += " [" + c.pci_bus_id + "]";
  }
  if (c.kind == "gpu")
    return "host " + c.host + " " + gpu + (c.uuid.empty() ? "" : " (" + c.uuid + ")");
  if (c.kind == "rail")
    return "host " + c.host + " rail " + std::to_string(c.gpu) + " (" + gpu + " and its NIC)";
  return "node " + c.host + (c.direction.empty() ? "" : " (" + c.direction + ")");
}

} // namespace cb
