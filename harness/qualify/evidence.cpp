#include "qualify/evidence.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "qualify/qualify.hpp"
#include "qualify/record_match.hpp"
#include "qualify/spec.hpp"
#include "results/pair_test_record.hpp"
#include "results/rank_identity.hpp"
#include "results/second_pass_record.hpp"
#include "results/suite_names.hpp"

namespace cb {

int Evidence::host_index(const std::string& host) {
  auto [it, inserted] = index_of_host_.try_emplace(host, static_cast<int>(hosts.size()));
  if (inserted)
    hosts.push_back(host);
  return it->second;
}

namespace {

using nlohmann::json;

// A figure of kMinEvidence: a settled figure of one end alone needs no partner to be read.
constexpr int kOneEndWeight = kMinEvidence;
// GPU slots of a node the diagnosis indexes (nodes x slots candidates): more than any node has,
// and a bound on what a hand-edited device number can cost.
constexpr int kMaxGpuSlots = 1024;

class EvidenceBuilder {
public:
  EvidenceBuilder(const std::string& path, int min_peers, Evidence& evidence)
      : path_(path), min_peers_(min_peers), e_(evidence) {}

  void add(std::size_t index, const Record& r) {
    if (r.status == RecordStatus::skipped || r.status == RecordStatus::failed)
      return;
    if (is_pair_test_across_nodes(r.extra)) {
      // A test that measured its pairs but said they cannot be judged (the host backend's
      // both-ways pairs: full or half duplex by the transport's whim) convicts nobody here either.
      if (const auto pass = second_pass_from_json(r.extra, ""); pass && !pass->judged) {
        e_.not_weighed.push_back(describe_record(r) + ": measured, not judged across nodes");
        return;
      }
      add_pair_test(index, r);
      return;
    }
    if (per_rank_figures_include_waiting(r) || !r.per_rank.is_array() || r.per_rank.empty())
      return;
    if (r.status == RecordStatus::noisy || r.samples_s.size() < kMinSamplesForVerdict) {
      e_.not_weighed.push_back(describe_record(r) + ": " +
                               (r.status == RecordStatus::noisy
                                    ? "noisy" + (r.reason.empty() ? "" : " (" + r.reason + ")")
                                    : std::to_string(r.samples_s.size()) + " sample(s)"));
      return;
    }
    if (r.suite == suite_names::kLinks && r.case_name == "ring_bw") {
      add_ring(index, r);
    } else if (r.suite == suite_names::kStorage) {
      add_one_end(index, r, false);
    } else if (!r.extra.contains("matrix")) {
      add_one_end(index, r, true);
    }
  }

private:
  std::uint16_t open_source(std::size_t index, const Record& r, const std::string& metric,
                            bool one_end) {
    SourceInfo info;
    info.record_index = index;
    info.record = describe_record(r);
    info.metric = metric;
    info.rate_of = lower_is_better(metric);
    info.one_end = one_end;
    e_.sources.push_back(std::move(info));
    e_.weights.push_back({one_end ? kOneEndWeight : 1});
    return static_cast<std::uint16_t>(e_.sources.size() - 1);
  }

  void push(int src, int dst, std::uint32_t round, std::uint16_t rail, std::uint16_t source,
            double value, bool rate_of) {
    const double rate = rate_of ? (value > 0 ? 1.0 / value : 0.0) : value;
    if (!(rate > 0) || !std::isfinite(rate))
      return; // no figure: nothing to judge
    Observation o;
    o.src = static_cast<std::uint32_t>(src);
    o.dst = static_cast<std::uint32_t>(dst);
    o.round = round;
    o.rail = rail;
    o.source = source;
    o.value = static_cast<float>(rate);
    e_.observations.push_back(o);
  }

  bool sources_left() const { return e_.sources.size() < 0xffff; }

  void add_pair_test(std::size_t index, const Record& r) {
    const PairTestRecord p = pair_test_from_json(r.extra, path_);
    if (p.members.size() < 2 || !sources_left())
      return;
    std::vector<int> node(p.members.size());
    for (std::size_t i = 0; i < p.members.size(); ++i) {
      std::string host = p.members[i];
      if (host.empty()) { // the run header holds the leader rank's host
        const json named = rank_field(r, json{{"rank", p.member_ranks[i]}}, "host");
        host = named.is_string() ? named.get<std::string>() : "";
      }
      if (host.empty())
        host = "node" + std::to_string(i) + " of " + describe_record(r);
      node[i] = e_.host_index(host);
    }
    const std::uint16_t source = open_source(index, r, p.matrix_metric, false);
    const bool rate_of = p.lower_is_better();
    for (const auto& f : p.observations) {
      if (f.rail >= static_cast<std::uint32_t>(kMaxGpuSlots))
        throw InputError(path_ + ": extra.observations.rail: " + std::to_string(f.rail) +
                         " beyond " + std::to_string(kMaxGpuSlots) + " GPUs a node");
      e_.rails = std::max(e_.rails, static_cast<int>(f.rail) + 1);
      push(node[f.src], node[f.dst], f.round, static_cast<std::uint16_t>(f.rail), source, f.value,
           rate_of);
    }
    const std::size_t n = p.members.size();
    // The second pass retests suspects: added beside the matrix, its figures would weigh the
    // suspects' slow pairs twice (a node with half its partners slow would look slow). A retest
    // stands for its pair's cell instead; one of a pair the matrix lacks is a figure of its own.
    std::map<std::pair<std::size_t, std::size_t>, double> retested;
    for (const auto& t : p.retests) {
      if (t.a != t.b)
        retested[{t.a, t.b}] = t.value;
    }
    if (p.has_matrix()) {
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
          if (a == b || std::isnan(p.cell(a, b)))
            continue;
          auto again = retested.find({a, b});
          push(node[a], node[b], 0, kNoRail, source,
               again != retested.end() ? again->second : p.cell(a, b), rate_of);
          if (again != retested.end())
            retested.erase(again);
        }
      }
    }
    for (const auto& [pair, value] : retested)
      push(node[pair.first], node[pair.second], 0, kNoRail, source, value, rate_of);
    if (p.screen && screen_groups_.empty()) {
      e_.screen_group_names = p.screen->group_names;
      for (std::size_t i = 0; i < n; ++i)
        screen_groups_[node[i]] = p.screen->group_of_node[i];
    }
  }

  // Per rank (by its "rank"), the member and its figure; ranks without one are left out.
  struct RankFigure {
    FleetMember who;
    double value = 0;
  };
  std::vector<RankFigure> rank_figures(const Record& r, const std::string& metric) const {
    std::vector<RankFigure> out;
    for (const auto& entry : r.per_rank) {
      if (!entry.is_object() || !entry.contains(metric) || !entry[metric].is_number())
        continue;
      out.push_back({fleet_member_of(r, entry), entry[metric].get<double>()});
    }
    std::stable_sort(out.begin(), out.end(), [](const RankFigure& a, const RankFigure& b) {
      return a.who.rank < b.who.rank;
    });
    return out;
  }

  // Rank i received from rank i - 1: the hop's figure, against both ends.
  void add_ring(std::size_t index, const Record& r) {
    const std::string metric = per_rank_metric(r);
    if (metric.empty() || !sources_left())
      return;
    const std::vector<RankFigure> ranks = rank_figures(r, metric);
    if (ranks.size() < 2 || ranks.size() != r.per_rank.size())
      return;
    const std::uint16_t source = open_source(index, r, metric, false);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const RankFigure& from = ranks[(i + ranks.size() - 1) % ranks.size()];
      const RankFigure& to = ranks[i];
      if (from.who.host.empty() || to.who.host.empty() || from.who.host == to.who.host)
        continue;
      push(e_.host_index(from.who.host), e_.host_index(to.who.host), 0, kNoRail, source, to.value,
           lower_is_better(metric));
    }
  }

  // Figures of one GPU (per_gpu) or of one node (its ranks' mean) alone.
  void add_one_end(std::size_t index, const Record& r, bool per_gpu) {
    const std::string metric = per_rank_metric(r);
    if (metric.empty() || static_cast<int>(r.per_rank.size()) < min_peers_ || !sources_left())
      return;
    const std::vector<RankFigure> ranks = rank_figures(r, metric);
    const bool rate_of = lower_is_better(metric);
    std::map<int, std::pair<double, int>> per_node; // sum, count
    std::vector<std::pair<int, RankFigure>> per_device;
    for (const auto& rank : ranks) {
      if (rank.who.host.empty())
        continue;
      const int node = e_.host_index(rank.who.host);
      if (per_gpu && rank.who.device >= kMaxGpuSlots) {
        throw InputError(path_ + ": " + describe_record(r) + ": per_rank device " +
                         std::to_string(rank.who.device) + " beyond " +
                         std::to_string(kMaxGpuSlots) + " GPUs a node");
      }
      if (per_gpu && rank.who.device >= 0) {
        per_device.emplace_back(node, rank);
      } else if (!per_gpu) {
        auto& [sum, count] = per_node[node];
        sum += rank.value;
        ++count;
      }
    }
    if (per_gpu ? per_device.empty() : per_node.size() < 2)
      return;
    const std::uint16_t source = open_source(index, r, metric, true);
    for (const auto& [node, rank] : per_device) {
      const auto device = static_cast<std::uint16_t>(rank.who.device);
      e_.rails = std::max(e_.rails, rank.who.device + 1);
      e_.gpus.try_emplace({node, rank.who.device}, rank.who);
      push(node, node, 0, device, source, rank.value, rate_of);
    }
    for (const auto& [node, sum_count] : per_node)
      push(node, node, 0, kNoRail, source, sum_count.first / sum_count.second, rate_of);
  }

public:
  void finish() {
    if (screen_groups_.empty())
      return;
    // Hosts no screen measured join a group of their own: the groups tell figures inside from
    // figures across, and such a host has neither.
    int own = static_cast<int>(e_.screen_group_names.size());
    for (const auto& [node, group] : screen_groups_)
      own = std::max(own, group + 1);
    while (static_cast<int>(e_.screen_group_names.size()) < own)
      e_.screen_group_names.push_back("group" + std::to_string(e_.screen_group_names.size()));
    e_.screen_group_of_node.assign(e_.hosts.size(), own);
    for (const auto& [node, group] : screen_groups_)
      e_.screen_group_of_node[static_cast<std::size_t>(node)] = group;
    if (static_cast<std::size_t>(
            std::count(e_.screen_group_of_node.begin(), e_.screen_group_of_node.end(), own)) > 0)
      e_.screen_group_names.push_back("unscreened");
  }

private:
  const std::string& path_;
  int min_peers_;
  Evidence& e_;
  std::map<int, int> screen_groups_;
};

} // namespace

Evidence gather_evidence(const ResultsFile& results, const std::string& path, int min_peers) {
  Evidence evidence;
  EvidenceBuilder builder(path, min_peers, evidence);
  for (std::size_t i = 0; i < results.records.size(); ++i)
    builder.add(i, results.records[i]);
  builder.finish();
  return evidence;
}

} // namespace cb
