// The pair tests' schedule, measurement and record: the rounds of bench/links/pair_schedule.hpp,
// the second pass of bench/links/pair_naming.hpp, and the matrices.
//
// Size of the record: within a node a rank x rank matrix per node (8 x 8 on a GPU node); across
// nodes one node x node matrix whose cells are node pairs, never a rank x rank matrix of the
// whole job (1,024 nodes x 8 GPUs would be 67M cells). Time: n - 1 rounds per tier instead of
// n (n - 1) pairs one after another.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "core/stats.hpp"
#include "links/links_case.hpp"
#include "links/pair_naming.hpp"
#include "links/pair_progress.hpp"

namespace cb {
namespace {

using Pair = std::pair<int, int>;

// Retests to measure: node pairs, and per round the indices of its pairs (no node twice).
struct Retests {
  std::vector<Pair> pairs;
  std::vector<std::vector<std::size_t>> rounds;
};

// Every rank gets rank 0's retests, as (a, b, round) per pair.
Retests broadcast_retests(const Communicator& comm, const Retests& on_root) {
  std::vector<int> round_of(on_root.pairs.size(), 0);
  for (std::size_t r = 0; r < on_root.rounds.size(); ++r) {
    for (std::size_t i : on_root.rounds[r])
      round_of[i] = static_cast<int>(r);
  }
  const int n = comm.broadcast_int(static_cast<int>(on_root.pairs.size()));
  const int rounds = comm.broadcast_int(static_cast<int>(on_root.rounds.size()));
  std::vector<int> flat;
  for (std::size_t i = 0; i < on_root.pairs.size(); ++i) {
    flat.push_back(on_root.pairs[i].first);
    flat.push_back(on_root.pairs[i].second);
    flat.push_back(round_of[i]);
  }
  flat.resize(static_cast<std::size_t>(3 * n));
  if (n > 0)
    comm.broadcast(flat.data(), static_cast<int>(flat.size() * sizeof(int)));
  Retests out;
  out.rounds.resize(static_cast<std::size_t>(rounds));
  for (int i = 0; i < n; ++i) {
    const auto at = [&](int k) { return flat[static_cast<std::size_t>(3 * i + k)]; };
    out.pairs.emplace_back(at(0), at(1));
    out.rounds.at(static_cast<std::size_t>(at(2))).push_back(static_cast<std::size_t>(i));
  }
  return out;
}

// The worse of two figures of one pair (its two directions).
double worse(const PairRule& rule, double x, double y) {
  return rule.lower_is_better ? std::max(x, y) : std::min(x, y);
}

} // namespace

LinksCase::PairTimes
LinksCase::measure_rounds(const CaseContext& ctx, int rounds,
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
      const Measurement m = measure(ctx.comm, settings,
                                    [&](int k) { return mine ? probe.timed(*mine, k) : 0.0; });
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

// Pair medians kept as a record's samples: every one up to 128 nodes (16,256 node pairs both
// ways), evenly spaced order statistics beyond.
constexpr std::size_t kMaxPairSamples = 16384;

nlohmann::json pair_rounds_json(const std::vector<Pair>& pairs, const std::vector<int>& round_of,
                                int first_round) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < pairs.size(); ++i)
    out.push_back({pairs[i].first, pairs[i].second, first_round + round_of[i]});
  return out;
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

} // namespace

void LinksCase::run_pair_test(const CaseContext& ctx, Record& record, const PairProbe& probe,
                              const std::function<double(double)>& value_of,
                              const std::string& metric, bool rails) {
  const PairTiers tiers(node_of_members(ctx), rails ? rail_keys(ctx) : std::vector<std::string>{});
  const bool sequential = ctx.config.pairs == "sequential";
  const bool root = ctx.comm.rank() == 0;
  const bool multi_node = tiers.nodes() > 1;
  const PairRule rule = metric == "latency_us" ? latency_rule() : bandwidth_rule();
  // The settings measure_rounds() samples with, for what the record says of them.
  const MeasureSettings used =
      probe.latency ? latency_settings(ctx.config.measure) : ctx.config.measure;

  // Rank 0 keeps where the rounds are beside the results, for a run that stops in the middle.
  std::unique_ptr<PairProgress> progress;
  if (root) {
    std::vector<std::string> hosts;
    for (int node = 0; node < tiers.nodes(); ++node)
      hosts.push_back(ctx.layout.host_of_rank[static_cast<std::size_t>(
          ctx.members[static_cast<std::size_t>(tiers.leader(node))])]);
    std::string what = record.suite + "/" + record.case_name;
    for (const auto& [key, value] : record.params.items())
      what += " " + key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    progress = std::make_unique<PairProgress>(ctx.config.out, what,
                                              sequential ? "sequential" : "rounds", hosts);
  }
  auto track = [&](const std::string& tier, int rounds) {
    return std::function<void(int)>([&progress, tier, rounds](int r) {
      if (progress)
        progress->at(tier, r, rounds);
    });
  };

  const TierRun intra_run = tier_run(
      sequential, tiers.intra_rounds(), [&](int r) { return tiers.intra_round(r); },
      tiers.all_intra());
  const PairTimes intra = measure_rounds(ctx, intra_run.rounds, intra_run.round_pairs, probe,
                                         track("intra", intra_run.rounds));
  // Each rank's figure: the median of the pairs it was the source of (and destination of),
  // gathered on rank 0 as the pairs are measured.
  const int n = ctx.comm.size();
  const bool symmetric = !probe.directed;
  std::vector<std::vector<double>> out_of(root ? static_cast<std::size_t>(n) : 0),
      into(root ? static_cast<std::size_t>(n) : 0);
  auto add_pair = [&](Pair p, double seconds) {
    const double v = value_of(seconds);
    out_of[static_cast<std::size_t>(p.first)].push_back(v);
    into[static_cast<std::size_t>(p.second)].push_back(v);
    if (symmetric) {
      out_of[static_cast<std::size_t>(p.second)].push_back(v);
      into[static_cast<std::size_t>(p.first)].push_back(v);
    }
  };
  for (std::size_t i = 0; root && i < intra.pairs.size(); ++i)
    add_pair(intra.pairs[i], intra.median_s[i]);
  // With rails rank 0 keeps each node pair's slowest rail, not every rail; every rail still
  // counts in its two ranks' figures.
  std::function<int(int)> node_of_rails;
  std::function<void(Pair, double)> each_rail;
  if (rails) {
    node_of_rails = [&tiers](int rank) { return tiers.node_index_of_rank(rank); };
    each_rail = add_pair;
  }
  PairTimes inter;
  if (multi_node) {
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
        for (const auto& p : tiers.node_pair_ranks(a, b, rails))
          out.push_back(p);
      }
      return out;
    };
    const int inter_rounds = sequential ? static_cast<int>(node_pairs.size()) : tiers.inter_rounds();
    inter = measure_rounds(
        ctx, inter_rounds,
        [&](int r) {
          return sequential ? ranks_of({node_pairs[static_cast<std::size_t>(r)]})
                            : ranks_of(circle_round(tiers.nodes(), r));
        },
        probe, track("inter", inter_rounds), node_of_rails, each_rail);
    if (!rails) {
      for (std::size_t i = 0; root && i < inter.pairs.size(); ++i)
        add_pair(inter.pairs[i], inter.median_s[i]);
    }
  }

  // The second pass, across nodes: rank 0 judges, every rank measures the retests it is given.
  std::unique_ptr<PairNaming> naming;
  if (multi_node && root) {
    std::map<Pair, double> by_node_pair;
    for (std::size_t i = 0; i < inter.pairs.size(); ++i) {
      const int a = tiers.node_index_of_rank(inter.pairs[i].first);
      const int b = tiers.node_index_of_rank(inter.pairs[i].second);
      const Pair key{std::min(a, b), std::max(a, b)};
      const double v = value_of(inter.median_s[i]);
      auto [it, added] = by_node_pair.try_emplace(key, v);
      if (!added)
        it->second = worse(rule, it->second, v);
    }
    std::vector<PairFigure> figures;
    for (const auto& [key, v] : by_node_pair)
      figures.push_back({key.first, key.second, v});
    naming = std::make_unique<PairNaming>(tiers.nodes(), std::move(figures), rule);
  }
  long long retest_wrong = 0;
  int retest_capped = 0, retest_settled = 0;
  std::vector<Pair> worst_rank_pair; // rank 0: the slowest rail of each node pair of a retest
  int retest_rounds_measured = 0;
  // Measures rank 0's retests (broadcast) in their rounds; rank 0 gets their figures.
  auto retest = [&](const Retests& on_root) {
    const Retests plan = broadcast_retests(ctx.comm, on_root);
    const std::vector<Pair>& node_pairs = plan.pairs;
    const auto& packed = plan.rounds;
    const PairTimes t = measure_rounds(
        ctx, static_cast<int>(packed.size()),
        [&](int r) {
          std::vector<Pair> out;
          for (std::size_t i : packed[static_cast<std::size_t>(r)]) {
            for (const auto& p :
                 tiers.node_pair_ranks(node_pairs[i].first, node_pairs[i].second, rails))
              out.push_back(p);
          }
          return out;
        },
        probe, track("retest", static_cast<int>(packed.size())), node_of_rails);
    retest_wrong += t.wrong;
    retest_capped += t.capped;
    retest_settled += t.settled;
    retest_rounds_measured += static_cast<int>(packed.size()) * (probe.directed ? 2 : 1);
    std::vector<double> values(node_pairs.size(), 0);
    worst_rank_pair.assign(node_pairs.size(), Pair{-1, -1});
    if (!root)
      return values;
    std::vector<bool> seen(node_pairs.size(), false);
    for (std::size_t k = 0; k < t.pairs.size(); ++k) {
      // The node pair this rank pair stands for: node pairs of one round are disjoint.
      const int a = tiers.node_index_of_rank(t.pairs[k].first);
      const int b = tiers.node_index_of_rank(t.pairs[k].second);
      for (std::size_t i : packed[static_cast<std::size_t>(t.round_of[k])]) {
        if (Pair{std::min(a, b), std::max(a, b)} !=
            Pair{std::min(node_pairs[i].first, node_pairs[i].second),
                 std::max(node_pairs[i].first, node_pairs[i].second)})
          continue;
        const double v = value_of(t.median_s[k]);
        if (!seen[i] || worse(rule, values[i], v) == v) {
          values[i] = v;
          worst_rank_pair[i] = t.pairs[k];
        }
        seen[i] = true;
      }
    }
    return values;
  };
  std::vector<Pair> end_worst;
  const auto second_pass_start = std::chrono::steady_clock::now();
  if (multi_node) {
    // The ends against their partners: many at scale (a slow node and each of its partners), so
    // packed into rounds (at most PairNaming::kMaxRetestRounds).
    Retests ends;
    if (root) {
      for (const auto& e : naming->end_retests())
        ends.pairs.emplace_back(e.member, e.partner);
      ends.rounds = naming->end_rounds();
    }
    const std::vector<double> end_values = retest(ends);
    end_worst = worst_rank_pair;
    if (root)
      naming->record_end_retests(end_values);
    // A link is named only by its own pair measured again: alone, free of the congestion of a
    // round, when they are few (suspect pairs both of whose ends passed), else in rounds.
    Retests again;
    if (root) {
      again.pairs = naming->pair_retests();
      again.rounds = naming->pair_rounds();
    }
    const std::vector<double> pair_values = retest(again);
    if (root)
      naming->record_pair_retests(pair_values);
  }
  // What the second pass took on rank 0, so that a run's time per phase can be held against a
  // plan that leaves it out (a healthy fleet needs none).
  const double second_pass_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - second_pass_start).count();

  if (progress)
    progress->finished();
  const long long wrong = ctx.comm.sum(intra.wrong + inter.wrong + retest_wrong);
  set_check(record, wrong, "words at the destinations");
  // Noisy when any measured (sub-)round missed the cv target: at the cap, or settled above it.
  const int capped = intra.capped + inter.capped + retest_capped;
  const int settled = intra.settled + inter.settled + retest_settled;
  if (capped > 0 || settled > 0) {
    char text[200];
    if (capped > 0 && settled > 0) {
      std::snprintf(text, sizeof text,
                    "%d measured rounds hit the %.3g s time cap and %d settled above the %.2f%% "
                    "cv target",
                    capped, used.max_time_s, settled, used.target_cv * 100);
    } else if (capped > 0) {
      std::snprintf(text, sizeof text,
                    "%d measured rounds hit the %.3g s time cap above the %.2f%% cv target", capped,
                    used.max_time_s, used.target_cv * 100);
    } else {
      std::snprintf(text, sizeof text,
                    "%d measured rounds settled above the %.2f%% cv target before the %.3g s cap",
                    settled, used.target_cv * 100, used.max_time_s);
    }
    record.status = RecordStatus::noisy;
    record.reason = record.reason.empty() ? text : record.reason + "; " + text;
    if (capped == 0)
      record.extra["stop"] = "settled"; // counted as such by the run's summary
  }
  if (!root)
    return;

  // How the first pass's (sub-)rounds were sampled: a fixed-size summary (the planner's converge
  // share and per-round time are checked against it).
  {
    std::vector<double> sampling = intra.sampling_s, samples = intra.samples;
    sampling.insert(sampling.end(), inter.sampling_s.begin(), inter.sampling_s.end());
    samples.insert(samples.end(), inter.samples.begin(), inter.samples.end());
    if (!sampling.empty()) {
      double total = 0;
      for (double v : sampling)
        total += v;
      record.extra["sub_rounds"] = {
          {"measured", sampling.size()},
          {"capped", intra.capped + inter.capped},
          {"settled", intra.settled + inter.settled},
          {"sampling_s", {{"median", median(sampling)},
                          {"max", *std::max_element(sampling.begin(), sampling.end())},
                          {"total", total}}},
          {"samples", {{"median", median(samples)},
                       {"max", *std::max_element(samples.begin(), samples.end())}}},
          {"batch_time_s", used.batch_time_s}};
    }
  }

  // The figures: each node's own rank x rank matrix, and across nodes the node x node matrix.
  LinkMatrix intra_matrix(multi_node ? 0 : n);
  std::vector<LinkMatrix> per_node;
  for (int node = 0; node < tiers.nodes(); ++node)
    per_node.emplace_back(static_cast<int>(tiers.members(node).size()));
  auto local_index = [&](int rank) {
    const auto& m = tiers.members(tiers.node_index_of_rank(rank));
    return static_cast<int>(std::find(m.begin(), m.end(), rank) - m.begin());
  };
  for (std::size_t i = 0; i < intra.pairs.size(); ++i) {
    const auto [a, b] = intra.pairs[i];
    const double v = value_of(intra.median_s[i]);
    LinkMatrix& m = per_node[static_cast<std::size_t>(tiers.node_index_of_rank(a))];
    m.set(local_index(a), local_index(b), v);
    if (symmetric)
      m.set(local_index(b), local_index(a), v);
    if (!multi_node) {
      intra_matrix.set(a, b, v);
      if (symmetric)
        intra_matrix.set(b, a, v);
    }
  }
  LinkMatrix node_matrix(multi_node ? tiers.nodes() : 0);
  for (std::size_t i = 0; i < inter.pairs.size(); ++i) {
    const int a = tiers.node_index_of_rank(inter.pairs[i].first);
    const int b = tiers.node_index_of_rank(inter.pairs[i].second);
    double v = value_of(inter.median_s[i]);
    // With rails the node pair's cell is its slowest rail.
    if (const auto before = node_matrix.at(a, b))
      v = worse(rule, *before, v);
    node_matrix.set(a, b, v);
    if (symmetric)
      node_matrix.set(b, a, v);
  }
  const LinkMatrix& matrix = multi_node ? node_matrix : intra_matrix;

  record.extra["schedule"] = sequential ? "sequential" : "rounds";
  record.extra["rounds"] = intra.rounds + inter.rounds;
  record.extra["rounds_by_tier"] = {{"intra", intra.rounds}, {"inter", inter.rounds}};
  // A directed metric measures each round's two directions one after the other.
  record.extra["directed"] = probe.directed;
  record.extra["round_note"] =
      sequential
          ? "one pair per round"
          : std::string("round-robin (circle) schedule: every pair once, no rank twice in a "
                        "round, all pairs of a round at once") +
                (probe.directed ? "; the two directions of a pair in consecutive sub-rounds" : "");
  // [source, destination, round] in comm ranks; intra-node rounds first, then the inter-node ones.
  // With rails every rail of a node pair runs in its round: the node pair is kept once, by its
  // first ranks (8 times fewer entries; 1 M of 8.4 M at 1,024 nodes of 8 GPUs); measure_rounds
  // kept its slowest rail.
  PairTimes inter_units;
  for (std::size_t i = 0; i < inter.pairs.size(); ++i) {
    const auto [a, b] = inter.pairs[i];
    inter_units.pairs.push_back(rails ? Pair{tiers.leader(tiers.node_index_of_rank(a)),
                                             tiers.leader(tiers.node_index_of_rank(b))}
                                      : inter.pairs[i]);
    inter_units.round_of.push_back(inter.round_of[i]);
  }
  nlohmann::json pair_rounds = pair_rounds_json(intra.pairs, intra.round_of, 0);
  for (auto& entry : pair_rounds_json(inter_units.pairs, inter_units.round_of, intra.rounds))
    pair_rounds.push_back(std::move(entry));
  record.extra["pair_rounds"] = std::move(pair_rounds);
  record.extra["pair_rounds_layout"] =
      rails ? "[source rank, destination rank, round]; across nodes one entry per node pair, by "
              "the first rank of each node: every rail of the pair (local GPU i with GPU i) ran "
              "in that round"
            : "[source rank, destination rank, round]";
  record.extra["matrix"] = matrix.to_json();
  record.extra["matrix_metric"] = metric;
  if (multi_node) {
    record.extra["matrix_of"] = "nodes";
    record.extra["matrix_layout"] =
        rails ? "rows = source node, columns = destination node (node order of matrix_members); "
                "each cell is the node pair's slowest rail, every local GPU i with GPU i of the "
                "other node at once"
              : "rows = source node, columns = destination node (node order of matrix_members); "
                "each cell is the node pair, measured between the first rank of each node";
    // No tier_matrix: between nodes every cell is "inter" by construction, and at 1,024 nodes the
    // matrix of that one word was 8 MB of each pair record (67 MB once loaded).
    nlohmann::json members = nlohmann::json::array();
    for (int node = 0; node < tiers.nodes(); ++node)
      members.push_back(rank_identity(ctx, tiers.leader(node)));
    record.extra["matrix_members"] = std::move(members);
    if (tiers.any_intra()) {
      nlohmann::json nodes = nlohmann::json::array();
      for (int node = 0; node < tiers.nodes(); ++node) {
        if (tiers.members(node).size() < 2)
          continue;
        nodes.push_back({{"node", node},
                         {"host", rank_identity(ctx, tiers.leader(node))["host"]},
                         {"ranks", tiers.members(node)},
                         {"matrix", per_node[static_cast<std::size_t>(node)].to_json()}});
      }
      record.extra["intra_matrices"] = std::move(nodes);
      record.extra["intra_matrices_layout"] =
          "per node: rows = source, columns = destination, in the order of its ranks";
    }
  } else {
    record.extra["matrix_of"] = "ranks";
    record.extra["matrix_layout"] = "rows = source rank, columns = destination rank (comm order)";
    record.extra["tier_matrix"] = tier_matrix(node_of_members(ctx));
  }
  // One value per measured unit: a pair within a node, a node pair (its slowest rail) across
  // nodes, as in the matrices.
  std::vector<double> medians = intra.median_s;
  if (rails && multi_node) {
    std::map<Pair, double> slowest_rail; // (source node, destination node) -> seconds
    for (std::size_t i = 0; i < inter.pairs.size(); ++i) {
      const Pair nodes{tiers.node_index_of_rank(inter.pairs[i].first),
                       tiers.node_index_of_rank(inter.pairs[i].second)};
      auto [it, added] = slowest_rail.try_emplace(nodes, inter.median_s[i]);
      if (!added)
        it->second = std::max(it->second, inter.median_s[i]); // longer: slower, for both metrics
    }
    for (const auto& [nodes, seconds] : slowest_rail)
      medians.push_back(seconds);
  } else {
    medians.insert(medians.end(), inter.median_s.begin(), inter.median_s.end());
  }
  record.extra["pairs"] = medians.size();
  record.stats = summarize(medians);
  // The statistics are of every pair; the samples kept are at most kMaxPairSamples of their
  // order statistics, evenly spaced (the distribution, for compare's tests), so that the record
  // stays bounded at 1,024 nodes (1 M node pairs) while 128 nodes (16,256) keep every value.
  if (medians.size() > kMaxPairSamples) {
    std::sort(medians.begin(), medians.end());
    std::vector<double> kept;
    kept.reserve(kMaxPairSamples);
    for (std::size_t k = 0; k < kMaxPairSamples; ++k)
      kept.push_back(medians[k * (medians.size() - 1) / (kMaxPairSamples - 1)]);
    record.extra["samples_note"] =
        "samples_s holds " + std::to_string(kMaxPairSamples) + " evenly spaced order statistics " +
        "(the smallest and largest included) of the " + std::to_string(medians.size()) +
        " measured pairs' median seconds (across nodes: each node pair's slowest rail); stats "
        "are of all of them";
    medians = std::move(kept);
  } else {
    record.extra["samples_note"] =
        rails && multi_node
            ? "samples_s holds one value per measured pair: its median seconds (across nodes: "
              "each node pair's slowest rail)"
            : "samples_s holds one value per measured pair: its median seconds";
  }
  record.samples_s = medians;
  const PairSummary s = summarize_pairs(matrix);
  record.metrics = {{"time_us", record.stats.median * 1e6},
                    {metric, s.median},
                    {"min_pair_" + metric, s.min},
                    {"max_pair_" + metric, s.max}};
  if (multi_node && tiers.any_intra()) {
    std::vector<double> cells;
    for (const auto& m : per_node) {
      const auto v = m.values();
      cells.insert(cells.end(), v.begin(), v.end());
    }
    if (!cells.empty())
      record.metrics["intra_" + metric] = median(cells);
  }
  record.per_rank = nlohmann::json::array();
  for (int r = 0; r < n; ++r) {
    nlohmann::json entry = rank_identity(ctx, r);
    if (!out_of[static_cast<std::size_t>(r)].empty())
      entry[metric] = median(out_of[static_cast<std::size_t>(r)]);
    if (!into[static_cast<std::size_t>(r)].empty())
      entry["in_" + metric] = median(into[static_cast<std::size_t>(r)]);
    record.per_rank.push_back(std::move(entry));
  }

  if (!naming)
    return;
  auto host_of_node = [&](int node) { return rank_identity(ctx, tiers.leader(node))["host"]; };
  nlohmann::json pass = {{"tier", "inter"},
                         {"unit", "node"},
                         {"metric", metric},
                         {"rule", naming->rule().text},
                         {"reference", naming->reference()},
                         {"reference_is", rule.lower_is_better
                                              ? "lowest pair"
                                              : "typical pair (the median pair, or the median "
                                                "over nodes of each node's median pair where "
                                                "slow nodes pulled the median pair down)"},
                         {"noisy_fleet", naming->noisy_fleet()}};
  if (naming->noisy_fleet()) {
    pass["noisy_fleet_rule"] =
        "the pairs' robust spread is above 10 %: a pair is suspect only when it is also a robust-z "
        "outlier (beyond 3.5)";
  }
  nlohmann::json suspects = nlohmann::json::array();
  for (std::size_t i : naming->suspects()) {
    const auto& f = naming->figures()[i];
    suspects.push_back({{"nodes", {f.a, f.b}}, {metric, f.value}});
  }
  pass["suspect_pairs"] = std::move(suspects);
  // Pairs better than the reference beyond the tolerance: a tier that is not uniform, where a
  // slow majority would look like a fast minority (qualify warns). O(nodes), not O(pairs).
  nlohmann::json better_hosts = nlohmann::json::array();
  for (int m : naming->better_members())
    better_hosts.push_back(host_of_node(m));
  pass["better_than_reference"] = {{"pairs", naming->better_pairs()},
                                   {"nodes", naming->better_members()},
                                   {"hosts", std::move(better_hosts)}};
  nlohmann::json ends = nlohmann::json::array();
  for (std::size_t i = 0; i < naming->end_retests().size(); ++i) {
    const auto& e = naming->end_retests()[i];
    ends.push_back({{"node", e.member},
                    {"host", host_of_node(e.member)},
                    {"partner", e.partner},
                    {"partner_host", host_of_node(e.partner)},
                    {metric, naming->end_value(i)},
                    {"slow", naming->end_slow(i)}});
  }
  pass["end_retests"] = std::move(ends);
  nlohmann::json again = nlohmann::json::array();
  for (std::size_t i = 0; i < naming->pair_retests().size(); ++i) {
    const auto& [a, b] = naming->pair_retests()[i];
    again.push_back({{"nodes", {a, b}}, {metric, naming->pair_retest_values()[i]}});
  }
  pass["pair_retests"] = std::move(again);
  pass["pair_retests_measured"] = naming->pair_retests_alone() ? "alone" : "in rounds";
  // What the second pass cost, in measured (sub-)rounds, and what its cap left out.
  pass["retest_rounds"] = retest_rounds_measured;
  pass["seconds"] = second_pass_s;
  pass["max_rounds_per_stage"] = PairNaming::kMaxRetestRounds;
  pass["beyond_cap"] = {{"end_retests", naming->beyond_cap().end_retests},
                        {"pair_retests", naming->beyond_cap().pair_retests}};
  const PairVerdicts v = naming->verdicts();
  nlohmann::json verdicts = nlohmann::json::array();
  for (int node : v.nodes) {
    nlohmann::json named = {{"kind", "node"}, {"node", node}, {"host", host_of_node(node)}};
    for (std::size_t i = 0; i < naming->end_retests().size(); ++i) {
      if (naming->end_retests()[i].member != node)
        continue;
      named[metric] = naming->end_value(i);
      // With rails, the GPU (and its NIC) of the slowest rail in this node's retest.
      if (rails && i < end_worst.size() && end_worst[i].first >= 0) {
        const auto [x, y] = end_worst[i];
        const int mine = tiers.node_index_of_rank(x) == node ? x : y;
        named["rail"] = tiers.rail_of_rank(mine);
        named["device"] = rank_identity(ctx, mine)["device"];
      }
    }
    verdicts.push_back(std::move(named));
  }
  for (const auto& [a, b] : v.links) {
    nlohmann::json named = {
        {"kind", "link"}, {"nodes", {a, b}}, {"hosts", {host_of_node(a), host_of_node(b)}}};
    for (std::size_t i = 0; i < naming->pair_retests().size(); ++i) {
      if (naming->pair_retests()[i] == MemberPair{a, b})
        named[metric] = naming->pair_retest_values()[i];
    }
    verdicts.push_back(std::move(named));
  }
  pass["verdicts"] = std::move(verdicts);
  // Members slow with every good partner and fast with one another: a switch between them and
  // the rest, not the members (PairNaming). One entry per member: O(nodes) at any size.
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& group : v.groups) {
    nlohmann::json hosts = nlohmann::json::array();
    for (int node : group)
      hosts.push_back(host_of_node(node));
    groups.push_back({{"nodes", group}, {"hosts", std::move(hosts)}});
  }
  pass["split"] = {{"groups", std::move(groups)}, {"pairs", v.split_pairs}};
  auto pair_list = [](const std::vector<MemberPair>& pairs) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [a, b] : pairs)
      out.push_back({a, b});
    return out;
  };
  pass["cleared"] = pair_list(v.cleared);
  pass["unresolved"] = pair_list(v.unresolved);
  record.extra["second_pass"] = std::move(pass);
}

} // namespace cb
