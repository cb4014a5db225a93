// The record of a pair test: the sampling summary, each node's matrix within it, across nodes the
// node x node matrix of the rounds, the statistics of every measured pair, and per rank figures.
#include <algorithm>
#include <map>

#include "core/stats.hpp"
#include "links/links_case.hpp"
#include "links/pair_run.hpp"

namespace cb {
namespace {

using Pair = std::pair<int, int>;

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

int local_index(const PairTiers& tiers, int rank) {
  const auto& m = tiers.members(tiers.node_index_of_rank(rank));
  return static_cast<int>(std::find(m.begin(), m.end(), rank) - m.begin());
}

// [source, destination, round] in comm ranks; intra-node rounds first, then the inter-node ones.
// With rails every rail of a node pair runs in its round: the node pair is kept once, by its
// first ranks (8 times fewer entries; 1 M of 8.4 M at 1,024 nodes of 8 GPUs); measure_rounds
// kept its slowest rail.
void write_pair_rounds(const PairRun& run) {
  const PairTimes& inter = run.inter;
  PairTimes inter_units;
  for (std::size_t i = 0; i < inter.pairs.size(); ++i) {
    const auto [a, b] = inter.pairs[i];
    inter_units.pairs.push_back(run.rails ? Pair{run.tiers.leader(run.tiers.node_index_of_rank(a)),
                                                 run.tiers.leader(run.tiers.node_index_of_rank(b))}
                                          : inter.pairs[i]);
    inter_units.round_of.push_back(inter.round_of[i]);
  }
  nlohmann::json pair_rounds = pair_rounds_json(run.intra.pairs, run.intra.round_of, 0);
  for (auto& entry : pair_rounds_json(inter_units.pairs, inter_units.round_of, run.intra.rounds))
    pair_rounds.push_back(std::move(entry));
  run.record.extra["pair_rounds"] = std::move(pair_rounds);
  run.record.extra["pair_rounds_layout"] =
      run.rails
          ? "[source rank, destination rank, round]; across nodes one entry per node pair, by "
            "the first rank of each node: every rail of the pair (local GPU i with GPU i) ran "
            "in that round"
          : "[source rank, destination rank, round]";
}

// One value per measured unit: a pair within a node, a node pair (its slowest rail) across
// nodes, as in the matrices.
std::vector<double> unit_medians(const PairRun& run) {
  const PairTimes& inter = run.inter;
  std::vector<double> medians = run.intra.median_s;
  if (run.rails && run.multi_node) {
    std::map<Pair, double> slowest_rail; // (source node, destination node) -> seconds
    for (std::size_t i = 0; i < inter.pairs.size(); ++i) {
      const Pair nodes{run.tiers.node_index_of_rank(inter.pairs[i].first),
                       run.tiers.node_index_of_rank(inter.pairs[i].second)};
      auto [it, added] = slowest_rail.try_emplace(nodes, inter.median_s[i]);
      if (!added)
        it->second = std::max(it->second, inter.median_s[i]); // longer: slower, for both metrics
    }
    for (const auto& [nodes, seconds] : slowest_rail)
      medians.push_back(seconds);
  } else {
    medians.insert(medians.end(), inter.median_s.begin(), inter.median_s.end());
  }
  return medians;
}

// The node x node matrix of the rounds, or the rank x rank one on a single node.
LinkMatrix first_pass_matrix(const PairRun& run) {
  if (!run.multi_node) {
    LinkMatrix m(run.n);
    for (std::size_t i = 0; i < run.intra.pairs.size(); ++i) {
      const auto [a, b] = run.intra.pairs[i];
      const double v = run.value_of(run.intra.median_s[i]);
      m.set(a, b, v);
      if (run.symmetric)
        m.set(b, a, v);
    }
    return m;
  }
  LinkMatrix node_matrix(run.tiers.nodes());
  for (std::size_t i = 0; i < run.inter.pairs.size(); ++i) {
    const int a = run.tiers.node_index_of_rank(run.inter.pairs[i].first);
    const int b = run.tiers.node_index_of_rank(run.inter.pairs[i].second);
    double v = run.value_of(run.inter.median_s[i]);
    // With rails the node pair's cell is its slowest rail.
    if (const auto before = node_matrix.at(a, b))
      v = run.worse(*before, v);
    node_matrix.set(a, b, v);
    if (run.symmetric)
      node_matrix.set(b, a, v);
  }
  return node_matrix;
}

} // namespace

void write_sub_rounds(const PairRun& run, const std::vector<const PairTimes*>& passes) {
  std::vector<double> sampling, samples;
  int capped = 0, settled = 0;
  for (const PairTimes* t : passes) {
    sampling.insert(sampling.end(), t->sampling_s.begin(), t->sampling_s.end());
    samples.insert(samples.end(), t->samples.begin(), t->samples.end());
    capped += t->capped;
    settled += t->settled;
  }
  if (sampling.empty())
    return;
  double total = 0;
  for (double v : sampling)
    total += v;
  run.record.extra["sub_rounds"] = {
      {"measured", sampling.size()},
      {"capped", capped},
      {"settled", settled},
      {"sampling_s",
       {{"median", median(sampling)},
        {"max", *std::max_element(sampling.begin(), sampling.end())},
        {"total", total}}},
      {"samples",
       {{"median", median(samples)}, {"max", *std::max_element(samples.begin(), samples.end())}}},
      {"batch_time_s", run.used.batch_time_s}};
}

void write_intra_matrices(PairRun& run) {
  const PairTiers& tiers = run.tiers;
  std::vector<LinkMatrix> per_node;
  for (int node = 0; node < tiers.nodes(); ++node)
    per_node.emplace_back(static_cast<int>(tiers.members(node).size()));
  std::vector<double> cells;
  for (std::size_t i = 0; i < run.intra.pairs.size(); ++i) {
    const auto [a, b] = run.intra.pairs[i];
    const double v = run.value_of(run.intra.median_s[i]);
    LinkMatrix& m = per_node[static_cast<std::size_t>(tiers.node_index_of_rank(a))];
    m.set(local_index(tiers, a), local_index(tiers, b), v);
    if (run.symmetric)
      m.set(local_index(tiers, b), local_index(tiers, a), v);
  }
  if (!tiers.any_intra())
    return;
  nlohmann::json nodes = nlohmann::json::array();
  for (int node = 0; node < tiers.nodes(); ++node) {
    const auto v = per_node[static_cast<std::size_t>(node)].values();
    cells.insert(cells.end(), v.begin(), v.end());
    if (tiers.members(node).size() < 2)
      continue;
    nodes.push_back({{"node", node},
                     {"host", run.host_of_node(node)},
                     {"ranks", tiers.members(node)},
                     {"matrix", per_node[static_cast<std::size_t>(node)].to_json()}});
  }
  run.record.extra["intra_matrices"] = std::move(nodes);
  run.record.extra["intra_matrices_layout"] =
      "per node: rows = source, columns = destination, in the order of its ranks";
  if (!cells.empty())
    run.record.metrics["intra_" + run.metric] = median(cells);
}

void write_matrix_members(PairRun& run) {
  nlohmann::json members = nlohmann::json::array();
  for (int node = 0; node < run.tiers.nodes(); ++node)
    members.push_back(rank_identity(run.ctx, run.tiers.leader(node)));
  run.record.extra["matrix_of"] = "nodes";
  run.record.extra["matrix_members"] = std::move(members);
}

void write_pair_samples(PairRun& run, std::vector<double> medians, const std::string& unit_note,
                        const std::string& kept_note) {
  run.record.extra["pairs"] = medians.size();
  run.record.stats = summarize(medians);
  // The statistics are of every pair; the samples kept are at most kMaxPairSamples of their
  // order statistics, evenly spaced (the distribution, for compare's tests), so that the record
  // stays bounded at 1,024 nodes (1 M node pairs) while 128 nodes (16,256) keep every value.
  if (medians.size() > kMaxPairSamples) {
    std::sort(medians.begin(), medians.end());
    std::vector<double> kept;
    kept.reserve(kMaxPairSamples);
    for (std::size_t k = 0; k < kMaxPairSamples; ++k)
      kept.push_back(medians[k * (medians.size() - 1) / (kMaxPairSamples - 1)]);
    run.record.extra["samples_note"] =
        "samples_s holds " + std::to_string(kMaxPairSamples) + " evenly spaced order statistics " +
        "(the smallest and largest included) of the " + std::to_string(medians.size()) +
        " measured pairs' median seconds" + kept_note + "; stats are of all of them";
    medians = std::move(kept);
  } else {
    run.record.extra["samples_note"] =
        "samples_s holds one value per measured pair: its median seconds" + unit_note;
  }
  run.record.samples_s = medians;
}

void write_per_rank(PairRun& run) {
  run.record.per_rank = nlohmann::json::array();
  for (int r = 0; r < run.n; ++r) {
    nlohmann::json entry = rank_identity(run.ctx, r);
    if (!run.out_of[static_cast<std::size_t>(r)].empty())
      entry[run.metric] = median(run.out_of[static_cast<std::size_t>(r)]);
    if (!run.into[static_cast<std::size_t>(r)].empty())
      entry["in_" + run.metric] = median(run.into[static_cast<std::size_t>(r)]);
    run.record.per_rank.push_back(std::move(entry));
  }
}

void write_rounds_record(PairRun& run, const SecondPass& pass) {
  Record& record = run.record;
  write_sub_rounds(run, {&run.intra, &run.inter});
  const LinkMatrix matrix = first_pass_matrix(run);
  record.extra["schedule"] = run.sequential ? "sequential" : "rounds";
  record.extra["rounds"] = run.intra.rounds + run.inter.rounds;
  record.extra["rounds_by_tier"] = {{"intra", run.intra.rounds}, {"inter", run.inter.rounds}};
  // A directed metric measures each round's two directions one after the other.
  record.extra["directed"] = run.probe.directed;
  record.extra["round_note"] =
      run.sequential
          ? "one pair per round"
          : std::string("round-robin (circle) schedule: every pair once, no rank twice in a "
                        "round, all pairs of a round at once") +
                (run.probe.directed ? "; the two directions of a pair in consecutive sub-rounds"
                                    : "");
  write_pair_rounds(run);
  record.extra["matrix"] = matrix.to_json();
  record.extra["matrix_metric"] = run.metric;
  if (run.multi_node) {
    record.extra["matrix_layout"] =
        run.rails
            ? "rows = source node, columns = destination node (node order of matrix_members); "
              "each cell is the node pair's slowest rail, every local GPU i with GPU i of the "
              "other node at once"
            : "rows = source node, columns = destination node (node order of matrix_members); "
              "each cell is the node pair, measured between the first rank of each node";
    // No tier_matrix: between nodes every cell is "inter" by construction, and at 1,024 nodes the
    // matrix of that one word was 8 MB of each pair record (67 MB once loaded).
    write_matrix_members(run);
  } else {
    record.extra["matrix_of"] = "ranks";
    record.extra["matrix_layout"] = "rows = source rank, columns = destination rank (comm order)";
    std::vector<int> node_of_rank;
    for (int r = 0; r < run.n; ++r)
      node_of_rank.push_back(run.tiers.node_index_of_rank(r));
    record.extra["tier_matrix"] = tier_matrix(node_of_rank);
  }
  write_pair_samples(run, unit_medians(run),
                     run.rails && run.multi_node ? " (across nodes: each node pair's slowest rail)"
                                                 : "",
                     " (across nodes: each node pair's slowest rail)");
  const PairSummary s = summarize_pairs(matrix);
  record.metrics = {{"time_us", record.stats.median * 1e6},
                    {run.metric, s.median},
                    {"min_pair_" + run.metric, s.min},
                    {"max_pair_" + run.metric, s.max}};
  if (run.multi_node)
    write_intra_matrices(run);
  write_per_rank(run);
  if (pass.naming)
    record.extra["second_pass"] = second_pass_json(run, pass);
  else if (run.multi_node && !run.probe.not_judged_across_nodes.empty())
    record.extra["second_pass"] = second_pass_not_judged_json(run);
}

} // namespace cb
