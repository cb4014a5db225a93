// The first pass of the pair tests: the engine over the pairs of each round
// (measure_pair_rounds), the pairs within each node in rounds, and the node pairs across nodes in
// rounds (or one pair at a time with --pairs sequential).
//
// Size: within a node a rank x rank matrix per node (8 x 8 on a GPU node); across nodes one node x
// node matrix whose cells are node pairs, never a rank x rank matrix of the whole job (1,024 nodes
// x 8 GPUs would be 67M cells). Time: n - 1 rounds per tier instead of n (n - 1) pairs one after
// another.
#include <algorithm>
#include <map>
#include <optional>

#include "links/links_case.hpp"
#include "links/links_options.hpp"
#include "links/pair_run.hpp"
#include "links/pair_screen.hpp"

namespace cb {

using Pair = std::pair<int, int>;

PairTimes measure_pair_rounds(const CaseContext& ctx, int rounds,
                              const std::function<std::vector<Pair>(int)>& round_pairs,
                              const PairProbe& probe, const std::function<void(int)>& on_round,
                              const std::function<int(int)>& unit_of,
                              const std::function<void(Pair, double)>& each_pair) {
  PairTimes out;
  out.rounds = rounds;
  const int me = ctx.comm.rank();
  const MeasureSettings settings =
      probe.latency ? latency_settings(ctx.config.measure) : ctx.config.measure;
  long long wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    if (on_round)
      on_round(r);
    const std::vector<Pair> pairs = round_pairs(r);
    for (int sub = 0; sub < (probe.directed ? 2 : 1); ++sub) {
      std::optional<Pair> mine;
      for (const auto& [a, b] : pairs) {
        const Pair p = sub == 0 ? Pair{a, b} : Pair{b, a};
        if (me == p.first || me == p.second)
          mine = p;
      }
      probe.before();
      ctx.comm.barrier();
      ctx.progressing(); // a record of thousands of rounds at scale: --timeout bounds one
      const Measurement m =
          measure(ctx.comm, settings, [&](int k) { return mine ? probe.timed(*mine, k) : 0.0; });
      if (m.stop == "settled")
        ++out.settled;
      else if (!m.converged)
        ++out.capped;
      if (me == 0) {
        out.sampling_s.push_back(m.sampling_s);
        out.samples.push_back(static_cast<double>(m.samples_s.size()));
      }
      // Rank 0 alone keeps the pairs: O(pairs) on every rank is 100 MB a rank at 1,024 nodes
      // of 8 rails, where each rank needs only its own pair of the round.
      std::map<Pair, std::size_t> unit_entry; // this (sub-)round's unit pairs: their entry
      for (std::size_t i = 0; me == 0 && i < pairs.size(); ++i) {
        const Pair p = sub == 0 ? pairs[i] : Pair{pairs[i].second, pairs[i].first};
        const double seconds = std::max(m.rank_median_s[static_cast<std::size_t>(p.first)],
                                        m.rank_median_s[static_cast<std::size_t>(p.second)]);
        if (each_pair)
          each_pair(p, seconds);
        if (unit_of) {
          const auto [it, added] =
              unit_entry.try_emplace(Pair{unit_of(p.first), unit_of(p.second)}, out.pairs.size());
          if (!added) {
            // Longer is slower for every pair metric: the entry is the slowest rail's.
            if (seconds > out.median_s[it->second]) {
              out.pairs[it->second] = p;
              out.median_s[it->second] = seconds;
            }
            continue;
          }
        }
        out.pairs.push_back(p);
        out.round_of.push_back(r);
        out.median_s.push_back(seconds);
      }
      if (mine)
        wrong += probe.check(*mine);
    }
  }
  out.wrong = wrong; // summed by the caller, once for all tiers
  return out;
}

namespace {

// One tier in rounds, or its pairs one at a time (--pairs sequential).
struct TierRun {
  int rounds;
  std::function<std::vector<Pair>(int)> round_pairs;
};

TierRun tier_run(bool sequential, int rounds, const std::function<std::vector<Pair>(int)>& of_round,
                 const std::vector<Pair>& every_pair) {
  if (!sequential)
    return {rounds, of_round};
  auto all = std::make_shared<std::vector<Pair>>(every_pair);
  return {static_cast<int>(all->size()),
          [all](int i) { return std::vector<Pair>{(*all)[static_cast<std::size_t>(i)]}; }};
}

// Each member's GPU by PCI bus id, in comm rank order: a rail is a GPU slot, not a rank
// position (under srun or a wrapper rank i of one node need not drive the GPU that rank i of
// another does). One short string per member, once per record.
std::vector<std::string> rail_keys(const CaseContext& ctx) {
  const auto me = static_cast<std::size_t>(ctx.members[static_cast<std::size_t>(ctx.comm.rank())]);
  const std::string mine = me < ctx.world_devices.size() && ctx.world_devices[me].is_object()
                               ? ctx.world_devices[me].value("pci_bus_id", "")
                               : std::string();
  return ctx.comm.all_gather_string(mine);
}

std::vector<int> node_of_members(const CaseContext& ctx) {
  std::vector<int> out;
  for (int world_rank : ctx.members)
    out.push_back(ctx.layout.node_of_rank[static_cast<std::size_t>(world_rank)]);
  return out;
}

} // namespace

PairRun::PairRun(const CaseContext& ctx_, Record& record_, const PairProbe& probe_,
                 std::function<double(double)> value_of_, std::string metric_, bool rails_)
    : ctx(ctx_), record(record_), probe(probe_), value_of(std::move(value_of_)),
      metric(std::move(metric_)), rails(rails_),
      tiers(node_of_members(ctx_), rails_ ? rail_keys(ctx_) : std::vector<std::string>{}),
      schedule(pair_schedule_for(kPairs.given(ctx_.config).value_or(""), tiers.nodes())),
      sequential(schedule == "sequential"), root(ctx_.comm.rank() == 0),
      multi_node(tiers.nodes() > 1), symmetric(!probe_.directed), n(ctx_.comm.size()),
      rule(metric == "latency_us" ? latency_rule() : bandwidth_rule()),
      used(probe_.latency ? latency_settings(ctx_.config.measure) : ctx_.config.measure) {
  // Rank 0 keeps where the rounds are beside the results, for a run that stops in the middle.
  if (root) {
    std::vector<std::string> hosts;
    for (int node = 0; node < tiers.nodes(); ++node)
      hosts.push_back(ctx.layout.host_of_rank[static_cast<std::size_t>(
          ctx.members[static_cast<std::size_t>(tiers.leader(node))])]);
    std::string what = record.suite + "/" + record.case_name;
    for (const auto& [key, value] : record.params.items())
      what += " " + key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    progress = std::make_unique<PairProgress>(ctx.config.out, what, schedule, hosts);
    out_of.resize(static_cast<std::size_t>(n));
    into.resize(static_cast<std::size_t>(n));
  }
  if (rails) {
    node_of_rails = [this](int rank) { return tiers.node_index_of_rank(rank); };
    each_rail = [this](Pair p, double seconds) { add_pair(p, seconds); };
  }
}

void PairRun::add_pair(Pair p, double seconds) {
  const double v = value_of(seconds);
  out_of[static_cast<std::size_t>(p.first)].push_back(v);
  into[static_cast<std::size_t>(p.second)].push_back(v);
  if (symmetric) {
    out_of[static_cast<std::size_t>(p.second)].push_back(v);
    into[static_cast<std::size_t>(p.first)].push_back(v);
  }
}

std::function<void(int)> PairRun::track(const std::string& tier, int rounds) {
  return [this, tier, rounds](int r) {
    if (progress)
      progress->at(tier, r, rounds);
  };
}

double PairRun::worse(double x, double y) const {
  return rule.lower_is_better ? std::max(x, y) : std::min(x, y);
}

nlohmann::json PairRun::host_of_node(int node) const {
  return rank_identity(ctx, tiers.leader(node))["host"];
}

void run_first_pass(PairRun& run) {
  const PairTiers& tiers = run.tiers;
  const bool sequential = run.sequential;
  const TierRun intra_run = tier_run(
      sequential, tiers.intra_rounds(), [&](int r) { return tiers.intra_round(r); },
      tiers.all_intra());
  run.intra = measure_pair_rounds(run.ctx, intra_run.rounds, intra_run.round_pairs, run.probe,
                                  run.track("intra", intra_run.rounds));
  // Each rank's figure: the median of the pairs it was the source of (and destination of),
  // gathered on rank 0 as the pairs are measured.
  for (std::size_t i = 0; run.root && i < run.intra.pairs.size(); ++i)
    run.add_pair(run.intra.pairs[i], run.intra.median_s[i]);
  if (!run.multi_node || run.schedule == "screen")
    return;
  // The unit is the node pair (with rails, all of its rails at once); sequential: one node
  // pair per round (listed only then: 0.5 M node pairs at 1,024 nodes, on every rank).
  std::vector<Pair> node_pairs;
  for (int r = 0; sequential && r < tiers.inter_rounds(); ++r) {
    for (const auto& p : circle_round(tiers.nodes(), r))
      node_pairs.push_back(p);
  }
  auto ranks_of = [&](const std::vector<Pair>& of_nodes) {
    std::vector<Pair> out;
    for (const auto& [a, b] : of_nodes) {
      for (const auto& p : tiers.node_pair_ranks(a, b, run.rails))
        out.push_back(p);
    }
    return out;
  };
  const int inter_rounds = sequential ? static_cast<int>(node_pairs.size()) : tiers.inter_rounds();
  run.inter = measure_pair_rounds(
      run.ctx, inter_rounds,
      [&](int r) {
        return sequential ? ranks_of({node_pairs[static_cast<std::size_t>(r)]})
                          : ranks_of(circle_round(tiers.nodes(), r));
      },
      run.probe, run.track("inter", inter_rounds), run.node_of_rails, run.each_rail);
  if (!run.rails) {
    for (std::size_t i = 0; run.root && i < run.inter.pairs.size(); ++i)
      run.add_pair(run.inter.pairs[i], run.inter.median_s[i]);
  }
}

} // namespace cb
