#include "qualify/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/stats.hpp"
#include "qualify/record_match.hpp"
#include "results/rank_identity.hpp"
#include "results/second_pass_record.hpp"

namespace cb {
namespace {

using nlohmann::json;

// 0.6745 is the 0.75 quantile of the standard normal: it scales the MAD to a standard deviation,
// so a robust z reads like an ordinary one (Iglewicz and Hoaglin).
constexpr double kMadScale = 0.6745;

int int_field(const json& entry, const char* key) {
  auto it = entry.find(key);
  return it != entry.end() && it->is_number_integer() ? it->get<int>() : -1;
}

class FleetJudge {
public:
  FleetJudge(const FleetRules& rules, FleetReport& report) : rules_(rules), report_(report) {}

  void judge(std::size_t index, const Record& r) {
    if (r.status == RecordStatus::skipped || r.status == RecordStatus::failed)
      return;
    if (const auto pass = second_pass_from_json(r.extra, matrix_metric(r))) {
      judge_second_pass(index, r, *pass);
      judge_intra_matrices(index, r);
      return;
    }
    // A collective's per-rank figures are no GPU or node fleet (per_rank_figures_include_waiting):
    // the rank the others waited for is the straggler rule's to name; a slow link inside the
    // collective, the pair tests'.
    if (!per_rank_figures_include_waiting(r))
      judge_ranks_and_nodes(index, r);
    judge_links(index, r);
    judge_straggler(index, r);
  }

private:
  struct Candidate {
    FleetMember who;
    FleetMember to;
    double value;
  };

  void judge_fleet(std::size_t index, const Record& r, FleetKind kind, const std::string& metric,
                   const std::vector<Candidate>& members) {
    if (static_cast<int>(members.size()) < rules_.min_peers)
      return;
    ++report_.fleets_examined;
    std::vector<double> values;
    for (const auto& m : members)
      values.push_back(m.value);
    const bool lower = lower_is_better(metric);
    const OutlierFlags flags = flag_outliers(values, rules_, lower);
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (!flags.any(i))
        continue;
      Outlier o;
      o.record_index = index;
      o.record = describe_record(r);
      o.metric = metric;
      o.kind = kind;
      o.who = members[i].who;
      o.to = members[i].to;
      o.value = values[i];
      o.fleet_median = flags.median;
      o.robust_z = flags.robust_z[i];
      o.fleet_size = members.size();
      o.by_robust_z = flags.by_robust_z[i];
      o.by_fraction = flags.by_fraction[i];
      if (lower) {
        o.ratio = values[i] > 0 ? flags.median / values[i] : 0;
      } else {
        o.ratio = flags.median > 0 ? values[i] / flags.median : 0;
      }
      report_.outliers.push_back(std::move(o));
    }
  }

  void judge_ranks_and_nodes(std::size_t index, const Record& r) {
    const std::string metric = per_rank_metric(r);
    if (metric.empty())
      return;
    std::vector<Candidate> gpus;
    std::map<std::string, std::pair<double, int>> per_host; // sum, count
    for (const auto& entry : r.per_rank) {
      Candidate c{fleet_member_of(r, entry), {}, entry[metric].get<double>()};
      if (!c.who.host.empty()) {
        auto& [sum, count] = per_host[c.who.host];
        sum += c.value;
        ++count;
      }
      gpus.push_back(std::move(c));
    }
    judge_fleet(index, r, FleetKind::gpu, metric, gpus);
    std::vector<Candidate> nodes;
    for (const auto& [host, sum_count] : per_host) {
      FleetMember node;
      node.host = host;
      nodes.push_back({node, {}, sum_count.first / sum_count.second});
    }
    judge_fleet(index, r, FleetKind::node, metric, nodes);
  }

  // The metric a link matrix holds: extra.matrix_metric when the record names it, else the
  // record's own figure (a latency matrix comes with latency_us, a bandwidth one with gbps).
  static std::string matrix_metric(const Record& r) {
    auto named = r.extra.find("matrix_metric");
    if (named != r.extra.end() && named->is_string())
      return named->get<std::string>();
    const std::string primary = primary_metric(r.metrics);
    return primary.empty() || primary == "time_us" ? "gbps" : primary;
  }

  // The tier of link src -> dst from extra.tier_matrix ("intra" / "inter"), "" when unknown.
  // Links of different tiers are different fleets: an inter-node link is not a slow NVLink.
  static std::string link_tier(const Record& r, std::size_t src, std::size_t dst) {
    auto tiers = r.extra.find("tier_matrix");
    if (tiers == r.extra.end() || !tiers->is_array() || src >= tiers->size())
      return "";
    const auto& row = (*tiers)[src];
    if (!row.is_array() || dst >= row.size() || !row[dst].is_string())
      return "";
    return row[dst].get<std::string>();
  }

  void judge_links(std::size_t index, const Record& r) {
    auto it = r.extra.find("matrix");
    if (it == r.extra.end() || !it->is_array())
      return;
    const std::string metric = matrix_metric(r);
    auto endpoint = [&](std::size_t i) {
      if (r.per_rank.is_array() && i < r.per_rank.size())
        return fleet_member_of(r, r.per_rank[i]);
      FleetMember m;
      m.device = static_cast<int>(i);
      return m;
    };
    std::map<std::string, std::vector<Candidate>> links_by_tier;
    for (std::size_t src = 0; src < it->size(); ++src) {
      const auto& row = (*it)[src];
      if (!row.is_array())
        continue;
      for (std::size_t dst = 0; dst < row.size(); ++dst) {
        if (src == dst || !row[dst].is_number())
          continue;
        links_by_tier[link_tier(r, src, dst)].push_back(
            {endpoint(src), endpoint(dst), row[dst].get<double>()});
      }
    }
    for (const auto& [tier, links] : links_by_tier)
      judge_fleet(index, r, FleetKind::link, metric, links);
  }

  // A multi-node pair test's GPU pairs inside each node (extra.intra_matrices: per node its
  // ranks and their rank x rank matrix): one fleet of the intra-node tier across every node, as a
  // single node's matrix is judged, so a slow GPU or NVLink names its host and device. The
  // second pass retests node pairs only; these links are judged by the fleet rules alone.
  void judge_intra_matrices(std::size_t index, const Record& r) {
    auto nodes = r.extra.find("intra_matrices");
    if (nodes == r.extra.end() || !nodes->is_array())
      return;
    const std::string metric = matrix_metric(r);
    auto endpoint = [&](const json& ranks, std::size_t i) {
      FleetMember m;
      m.device = static_cast<int>(i);
      if (i < ranks.size() && ranks[i].is_number_integer()) {
        const auto rank = ranks[i].get<long long>();
        if (r.per_rank.is_array() && rank >= 0 &&
            static_cast<std::size_t>(rank) < r.per_rank.size())
          m = fleet_member_of(r, r.per_rank[static_cast<std::size_t>(rank)]);
      }
      return m;
    };
    std::vector<Candidate> links;
    for (const auto& node : *nodes) {
      if (!node.is_object())
        continue;
      auto matrix = node.find("matrix");
      auto ranks = node.find("ranks");
      if (matrix == node.end() || !matrix->is_array() || ranks == node.end() || !ranks->is_array())
        continue;
      for (std::size_t src = 0; src < matrix->size(); ++src) {
        const auto& row = (*matrix)[src];
        if (!row.is_array())
          continue;
        for (std::size_t dst = 0; dst < row.size(); ++dst) {
          if (src != dst && row[dst].is_number())
            links.push_back({endpoint(*ranks, src), endpoint(*ranks, dst), row[dst].get<double>()});
        }
      }
    }
    judge_fleet(index, r, FleetKind::link, metric, links);
  }

  // The rank a collective waited for, as the record names it; not a fleet of its own (the rule
  // already compared it with the other ranks), and a warning only.
  void judge_straggler(std::size_t index, const Record& r) {
    if (!r.straggler)
      return;
    const StragglerRank& s = *r.straggler;
    Outlier o;
    o.record_index = index;
    o.record = describe_record(r);
    o.metric = "time_us";
    o.kind = FleetKind::straggler;
    // Named as operators name a GPU (nvidia-smi's index, the bus id), as every other outlier is:
    // the CUDA ordinal is 0 on every rank that sees one GPU.
    o.who.host = s.host;
    o.who.device = s.nvml_index >= 0 ? s.nvml_index : s.device;
    o.who.pci_bus_id = s.pci_bus_id;
    o.who.rank = s.rank;
    if (r.per_rank.is_array()) {
      for (const auto& entry : r.per_rank) {
        if (!entry.is_object() || int_field(entry, "rank") != s.rank)
          continue;
        const FleetMember m = fleet_member_of(r, entry);
        o.who.uuid = m.uuid;
        if (s.nvml_index < 0 && m.device >= 0 && !m.pci_bus_id.empty()) {
          o.who.device = m.device; // a file from before the straggler kept the names
          o.who.pci_bus_id = m.pci_bus_id;
        }
      }
    }
    o.value = s.median_s * 1e6;
    o.fleet_median = s.others_median_s * 1e6;
    o.fleet_size = static_cast<std::size_t>(r.gpus);
    o.by_straggler = true;
    o.shortest_share = s.shortest_share;
    o.ratio = s.others_median_s > 0 ? s.median_s / s.others_median_s : 0;
    report_.outliers.push_back(std::move(o));
  }

  // The verdicts of the pair tests' second pass: the nodes and links it named.
  void judge_second_pass(std::size_t index, const Record& r, const SecondPassRecord& pass) {
    auto matrix = r.extra.find("matrix");
    const std::size_t members = matrix != r.extra.end() && matrix->is_array() ? matrix->size() : 0;
    if (static_cast<int>(members) < rules_.min_peers || !pass.judged)
      return;
    ++report_.fleets_examined;
    const bool lower = lower_is_better(pass.metric);
    note_second_pass(index, r, pass, members);
    for (const auto& v : pass.verdicts) {
      Outlier o;
      o.record_index = index;
      o.record = describe_record(r);
      o.metric = pass.metric;
      o.fleet_median = pass.reference;
      o.fleet_size = members;
      o.by_second_pass = true;
      o.value = v.value;
      if (lower) {
        o.ratio = o.value > 0 ? pass.reference / o.value : 0;
      } else {
        o.ratio = pass.reference > 0 ? o.value / pass.reference : 0;
      }
      o.kind = v.is_link ? FleetKind::link : FleetKind::node;
      o.who.host = v.host;
      o.to.host = v.to_host;
      report_.outliers.push_back(std::move(o));
    }
  }

  FleetNote second_pass_note(std::size_t index, const Record& r, FleetNoteKind kind,
                             std::size_t pairs, std::size_t members) const {
    FleetNote note;
    note.record_index = index;
    note.record = describe_record(r);
    note.kind = kind;
    // No more than the tier holds: a hand-edited count must not print an impossible figure.
    note.pairs = std::min(pairs, members * (members - 1) / 2);
    note.members = members;
    return note;
  }

  // What the second pass could not judge (FleetNote).
  void note_second_pass(std::size_t index, const Record& r, const SecondPassRecord& pass,
                        std::size_t members) {
    if (pass.better_pairs > 0) {
      FleetNote note =
          second_pass_note(index, r, FleetNoteKind::not_uniform, pass.better_pairs, members);
      for (const auto& h : pass.better_hosts) {
        if (note.hosts.size() < FleetNote::kNoteHosts)
          note.hosts.push_back(h);
      }
      note.hosts_total = std::min(pass.better_listed, members);
      report_.notes.push_back(std::move(note));
    }
    if (pass.split_pairs > 0 && !pass.split_groups.empty()) {
      // A group is two or more distinct hosts, each in one group; a split has pairs across. What a
      // hand-edited file lists beyond that is not counted, so no impossible figure is printed.
      FleetNote note = second_pass_note(index, r, FleetNoteKind::split, pass.split_pairs, members);
      std::set<std::string> seen;
      for (const auto& hosts : pass.split_groups) {
        std::vector<std::string> fresh;
        for (const auto& h : hosts) {
          if (!seen.count(h) && std::find(fresh.begin(), fresh.end(), h) == fresh.end())
            fresh.push_back(h);
        }
        if (fresh.size() < 2 || seen.size() + fresh.size() > members)
          continue;
        ++note.groups;
        for (auto& h : fresh) {
          if (note.hosts.size() < FleetNote::kNoteHosts)
            note.hosts.push_back(h);
          seen.insert(std::move(h));
        }
      }
      note.hosts_total = seen.size();
      if (note.groups > 0)
        report_.notes.push_back(std::move(note));
    }
    if (pass.unresolved > 0) {
      FleetNote note =
          second_pass_note(index, r, FleetNoteKind::unresolved, pass.unresolved, members);
      note.beyond_cap = pass.beyond_cap;
      report_.notes.push_back(std::move(note));
    }
  }

  const FleetRules& rules_;
  FleetReport& report_;
};

std::string member_key(const FleetMember& m) {
  return m.host + "|" + std::to_string(m.device) + "|" + std::to_string(m.rank) + "|" + m.uuid;
}

void add_finding(std::map<std::string, Suspect>& suspects, const std::string& key, FleetKind kind,
                 const FleetMember& who, const FleetMember& to, double ratio, bool via_links) {
  auto [it, inserted] = suspects.try_emplace(key);
  Suspect& s = it->second;
  if (inserted) {
    s.kind = kind;
    s.who = who;
    s.to = to;
    s.via_links = via_links;
    s.worst_ratio = ratio;
    s.label = member_label(kind, who, to);
  }
  ++s.outliers;
  s.worst_ratio = std::min(s.worst_ratio, ratio);
}

// A node the second pass named slow explains every link it is on: a link verdict of another
// record that touches it (one retest of the node came out fine by chance, or its unshaped
// direction carried a both-ways pair) is dropped, so the fleet names the node alone.
void drop_links_of_named_nodes(std::vector<Outlier>& outliers) {
  std::set<std::string> slow_nodes;
  for (const auto& o : outliers) {
    if (o.by_second_pass && o.kind == FleetKind::node && !o.who.host.empty())
      slow_nodes.insert(o.who.host);
  }
  outliers.erase(std::remove_if(outliers.begin(), outliers.end(),
                                [&](const Outlier& o) {
                                  return o.by_second_pass && o.kind == FleetKind::link &&
                                         (slow_nodes.count(o.who.host) ||
                                          slow_nodes.count(o.to.host));
                                }),
                 outliers.end());
}

std::vector<Suspect> name_suspects(const std::vector<Outlier>& outliers) {
  std::map<std::string, Suspect> suspects;
  std::map<std::string, Suspect> link_ends;
  for (const auto& o : outliers) {
    if (o.warns_only())
      continue;
    const std::string kind(fleet_kind_name(o.kind));
    if (o.kind != FleetKind::link) {
      add_finding(suspects, kind + "|" + member_key(o.who), o.kind, o.who, {}, o.ratio, false);
      continue;
    }
    add_finding(suspects, kind + "|" + member_key(o.who) + ">" + member_key(o.to), o.kind, o.who,
                o.to, o.ratio, false);
    if (o.by_second_pass)
      continue; // the second pass already cleared both ends of a link it names
    for (const FleetMember* end : {&o.who, &o.to}) {
      add_finding(link_ends, member_key(*end), FleetKind::gpu, *end, {}, o.ratio, true);
    }
  }
  std::vector<Suspect> named;
  for (auto& [key, s] : suspects)
    named.push_back(std::move(s));
  // A GPU at the end of several slow links is the likelier culprit than each link alone.
  for (auto& [key, s] : link_ends) {
    if (s.outliers >= 2)
      named.push_back(std::move(s));
  }
  std::stable_sort(named.begin(), named.end(), [](const Suspect& a, const Suspect& b) {
    if (a.outliers != b.outliers)
      return a.outliers > b.outliers;
    return a.worst_ratio < b.worst_ratio;
  });
  return named;
}

} // namespace

// Who `entry`, one of r.per_rank, is: its own fields, else those the run's header says of its
// rank (the writer leaves them out of the entry, results/rank_identity.hpp).
FleetMember fleet_member_of(const Record& r, const json& entry) {
  FleetMember m;
  if (!entry.is_object())
    return m;
  const json host = rank_field(r, entry, "host");
  const json nvml_index = rank_field(r, entry, "nvml_index");
  const json device = nvml_index.is_number_integer() ? nvml_index : rank_field(r, entry, "device");
  const json uuid = rank_field(r, entry, "uuid");
  const json bus = rank_field(r, entry, "pci_bus_id");
  m.host = host.is_string() ? host.get<std::string>() : "";
  m.device = device.is_number_integer() ? device.get<int>() : -1;
  m.pci_bus_id = bus.is_string() ? bus.get<std::string>() : "";
  m.rank = int_field(entry, "rank");
  m.uuid = uuid.is_string() ? uuid.get<std::string>() : "";
  return m;
}

// The metric the per-rank figures are compared by: one the record reports and every entry has.
std::string per_rank_metric(const Record& r) {
  if (!r.per_rank.is_array() || r.per_rank.empty() || !r.per_rank[0].is_object())
    return "";
  json shared = json::object();
  for (const auto& [name, value] : r.metrics.items()) {
    if (!value.is_number())
      continue;
    const bool everywhere = std::all_of(r.per_rank.begin(), r.per_rank.end(), [&](const json& e) {
      return e.is_object() && e.contains(name) && e[name].is_number();
    });
    if (everywhere)
      shared[name] = value;
  }
  return primary_metric(shared);
}

std::string_view fleet_kind_name(FleetKind k) {
  switch (k) {
  case FleetKind::gpu:
    return "gpu";
  case FleetKind::link:
    return "link";
  case FleetKind::node:
    return "node";
  case FleetKind::straggler:
    return "straggler";
  }
  return "gpu";
}

std::string_view fleet_note_kind_name(FleetNoteKind k) {
  switch (k) {
  case FleetNoteKind::unresolved:
    return "unresolved";
  case FleetNoteKind::split:
    return "split";
  case FleetNoteKind::not_uniform:
    break;
  }
  return "not_uniform";
}

std::size_t FleetReport::failing() const {
  return static_cast<std::size_t>(std::count_if(outliers.begin(), outliers.end(),
                                                [](const Outlier& o) { return !o.warns_only(); }));
}

std::optional<double> robust_z(double x, double median, double mad) {
  if (!(mad > 0))
    return std::nullopt;
  return kMadScale * (x - median) / mad;
}

OutlierFlags flag_outliers(const std::vector<double>& values, const FleetRules& rules,
                           bool lower_is_better) {
  OutlierFlags flags;
  const std::size_t n = values.size();
  flags.robust_z.assign(n, std::nullopt);
  flags.by_robust_z.assign(n, false);
  flags.by_fraction.assign(n, false);
  if (n == 0)
    return flags;
  flags.median = median(values);
  flags.mad = median_absolute_deviation(values);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = values[i];
    flags.robust_z[i] = robust_z(x, flags.median, flags.mad);
    if (flags.robust_z[i]) {
      // For latencies a high z is the bad side: mirror it so one threshold serves both.
      const double bad_side_z = lower_is_better ? -*flags.robust_z[i] : *flags.robust_z[i];
      const double deviation =
          flags.median != 0 ? std::fabs(x - flags.median) / std::fabs(flags.median) : 0;
      flags.by_robust_z[i] = bad_side_z < rules.robust_z && deviation >= rules.min_deviation;
    }
    if (lower_is_better) {
      flags.by_fraction[i] = x * rules.fraction_of_median > flags.median;
    } else {
      flags.by_fraction[i] = x < rules.fraction_of_median * flags.median;
    }
  }
  return flags;
}

FleetReport analyze_fleet(const ResultsFile& results, const FleetRules& rules) {
  FleetReport report;
  FleetJudge judge(rules, report);
  for (std::size_t i = 0; i < results.records.size(); ++i)
    judge.judge(i, results.records[i]);
  drop_links_of_named_nodes(report.outliers);
  report.suspects = name_suspects(report.outliers);
  return report;
}

} // namespace cb
