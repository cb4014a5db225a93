// The second pass of the pair tests across nodes (bench/links/pair_naming.hpp): rank 0 judges the
// first pass's node pairs, every rank measures the retests rank 0 broadcasts, and the record says
// what was named.
#include <algorithm>
#include <chrono>
#include <map>

#include "links/links_case.hpp"
#include "links/pair_run.hpp"

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

// The naming over the first pass's node pairs, each the worse of its directions and rails.
std::unique_ptr<PairNaming> first_pass_naming(const PairRun& run) {
  std::map<Pair, double> by_node_pair;
  for (std::size_t i = 0; i < run.inter.pairs.size(); ++i) {
    const int a = run.tiers.node_index_of_rank(run.inter.pairs[i].first);
    const int b = run.tiers.node_index_of_rank(run.inter.pairs[i].second);
    const Pair key{std::min(a, b), std::max(a, b)};
    const double v = run.value_of(run.inter.median_s[i]);
    auto [it, added] = by_node_pair.try_emplace(key, v);
    if (!added)
      it->second = run.worse(it->second, v);
  }
  std::vector<MemberPairFigure> figures;
  for (const auto& [key, v] : by_node_pair)
    figures.push_back({key.first, key.second, v});
  return std::make_unique<PairNaming>(run.tiers.nodes(), std::move(figures), run.rule);
}

// Measures rank 0's retests (broadcast) in their rounds; rank 0 gets their figures, and in
// `worst_rank_pair` the slowest rail of each node pair.
std::vector<double> measure_retests(PairRun& run, SecondPass& pass, const Retests& on_root,
                                    std::vector<Pair>& worst_rank_pair) {
  const Retests plan = broadcast_retests(run.ctx.comm, on_root);
  const std::vector<Pair>& node_pairs = plan.pairs;
  const auto& packed = plan.rounds;
  const PairTimes t = measure_pair_rounds(
      run.ctx, static_cast<int>(packed.size()),
      [&](int r) {
        std::vector<Pair> out;
        for (std::size_t i : packed[static_cast<std::size_t>(r)]) {
          for (const auto& p :
               run.tiers.node_pair_ranks(node_pairs[i].first, node_pairs[i].second, run.rails))
            out.push_back(p);
        }
        return out;
      },
      run.probe, run.track("retest", static_cast<int>(packed.size())), run.node_of_rails);
  pass.wrong += t.wrong;
  pass.capped += t.capped;
  pass.settled += t.settled;
  pass.rounds_measured += static_cast<int>(packed.size()) * (run.probe.directed ? 2 : 1);
  std::vector<double> values(node_pairs.size(), 0);
  worst_rank_pair.assign(node_pairs.size(), Pair{-1, -1});
  if (!run.root)
    return values;
  std::vector<bool> seen(node_pairs.size(), false);
  for (std::size_t k = 0; k < t.pairs.size(); ++k) {
    // The node pair this rank pair stands for: node pairs of one round are disjoint.
    const int a = run.tiers.node_index_of_rank(t.pairs[k].first);
    const int b = run.tiers.node_index_of_rank(t.pairs[k].second);
    for (std::size_t i : packed[static_cast<std::size_t>(t.round_of[k])]) {
      if (Pair{std::min(a, b), std::max(a, b)} !=
          Pair{std::min(node_pairs[i].first, node_pairs[i].second),
               std::max(node_pairs[i].first, node_pairs[i].second)})
        continue;
      const double v = run.value_of(t.median_s[k]);
      if (!seen[i] || run.worse(values[i], v) == v) {
        values[i] = v;
        worst_rank_pair[i] = t.pairs[k];
      }
      seen[i] = true;
    }
  }
  return values;
}

} // namespace

SecondPass run_second_pass(PairRun& run) {
  SecondPass pass;
  if (!run.multi_node || !run.probe.not_judged_across_nodes.empty())
    return pass;
  if (run.root)
    pass.naming = first_pass_naming(run);
  const auto start = std::chrono::steady_clock::now();
  std::vector<Pair> worst_rank_pair;
  // The ends against their partners: many at scale (a slow node and each of its partners), so
  // packed into rounds (at most PairNaming::kMaxRetestRounds).
  Retests ends;
  if (run.root) {
    for (const auto& e : pass.naming->end_retests())
      ends.pairs.emplace_back(e.member, e.partner);
    ends.rounds = pass.naming->end_rounds();
  }
  const std::vector<double> end_values = measure_retests(run, pass, ends, worst_rank_pair);
  pass.end_worst = worst_rank_pair;
  if (run.root)
    pass.naming->record_end_retests(end_values);
  // A link is named only by its own pair measured again: alone, free of the congestion of a
  // round, when they are few (suspect pairs both of whose ends passed), else in rounds.
  Retests again;
  if (run.root) {
    again.pairs = pass.naming->pair_retests();
    again.rounds = pass.naming->pair_rounds();
  }
  const std::vector<double> pair_values = measure_retests(run, pass, again, worst_rank_pair);
  if (run.root)
    pass.naming->record_pair_retests(pair_values);
  // What the second pass took on rank 0, so that a run's time per phase can be held against a
  // plan that leaves it out (a healthy fleet needs none).
  pass.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return pass;
}

namespace {

// The named nodes and links, with their retests' figures.
nlohmann::json verdicts_json(const PairRun& run, const SecondPass& pass) {
  const PairNaming& naming = *pass.naming;
  const std::string& metric = run.metric;
  const PairVerdicts v = naming.verdicts();
  nlohmann::json verdicts = nlohmann::json::array();
  for (int node : v.nodes) {
    nlohmann::json named = {{"kind", "node"}, {"node", node}, {"host", run.host_of_node(node)}};
    for (std::size_t i = 0; i < naming.end_retests().size(); ++i) {
      if (naming.end_retests()[i].member != node)
        continue;
      named[metric] = naming.end_value(i);
      // With rails, the GPU (and its NIC) of the slowest rail in this node's retest.
      if (run.rails && i < pass.end_worst.size() && pass.end_worst[i].first >= 0) {
        const auto [x, y] = pass.end_worst[i];
        const int mine = run.tiers.node_index_of_rank(x) == node ? x : y;
        named["rail"] = run.tiers.rail_of_rank(mine);
        named["device"] = rank_identity(run.ctx, mine)["device"];
      }
    }
    verdicts.push_back(std::move(named));
  }
  for (const auto& [a, b] : v.links) {
    nlohmann::json named = {
        {"kind", "link"}, {"nodes", {a, b}}, {"hosts", {run.host_of_node(a), run.host_of_node(b)}}};
    for (std::size_t i = 0; i < naming.pair_retests().size(); ++i) {
      if (naming.pair_retests()[i] == MemberPair{a, b})
        named[metric] = naming.pair_retest_values()[i];
    }
    verdicts.push_back(std::move(named));
  }
  return verdicts;
}

} // namespace

nlohmann::json second_pass_not_judged_json(const PairRun& run) {
  return {{"tier", "inter"},
          {"unit", "node"},
          {"metric", run.metric},
          {"judged", false},
          {"why", run.probe.not_judged_across_nodes},
          {"verdicts", nlohmann::json::array()}};
}

nlohmann::json second_pass_json(const PairRun& run, const SecondPass& second) {
  const PairNaming& naming = *second.naming;
  const std::string& metric = run.metric;
  const PairRule& rule = run.rule;
  auto host_of_node = [&](int node) { return run.host_of_node(node); };
  nlohmann::json pass = {{"tier", "inter"},
                         {"unit", "node"},
                         {"metric", metric},
                         {"rule", naming.rule().text},
                         {"reference", naming.reference()},
                         {"reference_is", rule.lower_is_better
                                              ? "lowest pair"
                                              : "typical pair (the median pair, or the median "
                                                "over nodes of each node's median pair where "
                                                "slow nodes pulled the median pair down)"},
                         {"noisy_fleet", naming.noisy_fleet()}};
  if (naming.noisy_fleet()) {
    pass["noisy_fleet_rule"] =
        "the pairs' robust spread is above 10 %: a pair is suspect only when it is also a robust-z "
        "outlier (beyond 3.5)";
  }
  nlohmann::json suspects = nlohmann::json::array();
  for (std::size_t i : naming.suspects()) {
    const auto& f = naming.figures()[i];
    suspects.push_back({{"nodes", {f.a, f.b}}, {metric, f.value}});
  }
  pass["suspect_pairs"] = std::move(suspects);
  // Pairs better than the reference beyond the tolerance: a tier that is not uniform, where a
  // slow majority would look like a fast minority (qualify warns). O(nodes), not O(pairs).
  nlohmann::json better_hosts = nlohmann::json::array();
  for (int m : naming.better_members())
    better_hosts.push_back(host_of_node(m));
  pass["better_than_reference"] = {{"pairs", naming.better_pairs()},
                                   {"nodes", naming.better_members()},
                                   {"hosts", std::move(better_hosts)}};
  nlohmann::json ends = nlohmann::json::array();
  for (std::size_t i = 0; i < naming.end_retests().size(); ++i) {
    const auto& e = naming.end_retests()[i];
    ends.push_back({{"node", e.member},
                    {"host", host_of_node(e.member)},
                    {"partner", e.partner},
                    {"partner_host", host_of_node(e.partner)},
                    {metric, naming.end_value(i)},
                    {"slow", naming.end_slow(i)}});
  }
  pass["end_retests"] = std::move(ends);
  nlohmann::json again = nlohmann::json::array();
  for (std::size_t i = 0; i < naming.pair_retests().size(); ++i) {
    const auto& [a, b] = naming.pair_retests()[i];
    again.push_back({{"nodes", {a, b}}, {metric, naming.pair_retest_values()[i]}});
  }
  pass["pair_retests"] = std::move(again);
  pass["pair_retests_measured"] = naming.pair_retests_alone() ? "alone" : "in rounds";
  // What the second pass cost, in measured (sub-)rounds, and what its cap left out.
  pass["retest_rounds"] = second.rounds_measured;
  pass["seconds"] = second.seconds;
  pass["max_rounds_per_stage"] = PairNaming::kMaxRetestRounds;
  pass["beyond_cap"] = {{"end_retests", naming.beyond_cap().end_retests},
                        {"pair_retests", naming.beyond_cap().pair_retests}};
  const PairVerdicts v = naming.verdicts();
  pass["verdicts"] = verdicts_json(run, second);
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
  return pass;
}

} // namespace cb
