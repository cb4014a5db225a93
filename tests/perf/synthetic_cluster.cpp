#include "synthetic_cluster.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/collective_math.hpp"
#include "core/stats.hpp"
#include "runtime/straggler.hpp"

namespace cb::perf {
namespace {

constexpr int kSamples = 30;

struct Maker {
  ClusterShape shape;
  std::mt19937_64 rng;
  std::normal_distribution<double> noise{0.0, 0.02};

  double jitter() { return 1 + std::abs(noise(rng)); }

  Record base(const std::string& suite, const std::string& name, nlohmann::json params, int gpus) {
    Record r;
    r.suite = suite;
    r.case_name = name;
    r.params = std::move(params);
    r.gpus = gpus;
    r.nodes = (gpus + shape.gpus_per_node - 1) / shape.gpus_per_node;
    r.ranks_per_node = std::min(gpus, shape.gpus_per_node);
    r.tier = r.nodes > 1 ? "inter" : "intra";
    r.check = DataCheck::pass;
    return r;
  }

  nlohmann::json identity(int rank) const {
    const int node = rank / shape.gpus_per_node;
    return {{"rank", rank},
            {"host", "gpu-node-" + std::to_string(node)},
            {"node", node},
            {"device", rank % shape.gpus_per_node},
            {"uuid", "GPU-" + std::to_string(100000 + rank)}};
  }

  // What a collective adds to its per-rank entries (runtime/case.cpp's add_rank_timing): each
  // rank's p99 and shortest share, the raw samples of the ranks ranks_to_keep picks, and the
  // straggler where find_straggler names one. `late` ranks arrive late in most samples: the
  // others' times include waiting for it.
  void rank_timing(Record& r, int late = -1) {
    const std::size_t n = r.per_rank.size();
    std::vector<int> shortest(n, 0);
    std::uniform_int_distribution<std::size_t> any(0, n - 1);
    std::uniform_real_distribution<double> chance(0, 1);
    for (int i = 0; i < kSamples; ++i) {
      const bool late_now = late >= 0 && chance(rng) < 0.9;
      ++shortest[late_now ? static_cast<std::size_t>(late) : any(rng)];
    }
    std::vector<RankTiming> timing;
    for (std::size_t i = 0; i < n; ++i) {
      nlohmann::json& entry = r.per_rank[i];
      const double median_s = entry["median_s"].get<double>();
      const double share = static_cast<double>(shortest[i]) / kSamples;
      entry["p99_s"] = round_significant(median_s * (1 + 3 * std::abs(noise(rng))), 4);
      if (share > 0)
        entry["shortest_share"] = round_significant(share, 4);
      timing.push_back({median_s, entry["p99_s"].get<double>(), share});
    }
    const auto straggler = find_straggler(timing, kSamples, r.extra["batch"].get<int>());
    for (std::size_t i : ranks_to_keep(timing, straggler)) {
      nlohmann::json samples = nlohmann::json::array();
      for (int k = 0; k < kSamples; ++k)
        samples.push_back(round_significant(timing[i].median_s * jitter(), 6));
      r.per_rank[i]["samples_s"] = std::move(samples);
    }
    if (straggler) {
      const nlohmann::json& entry = r.per_rank[straggler->index];
      r.straggler = StragglerRank{entry["rank"].get<int>(),
                                  entry["host"].get<std::string>(),
                                  entry["device"].get<int>(),
                                  round_significant(straggler->shortest_share, 4),
                                  round_significant(straggler->median_s, 6),
                                  round_significant(straggler->others_median_s, 6)};
    }
  }

  // Samples around `seconds`, stats, metrics from `metric(seconds)`, and one per-rank entry each.
  // A `late` rank's own time is 0.7 of the others': they waited for it.
  void measured(Record& r, double seconds, const std::function<nlohmann::json(double)>& metric,
                int late = -1) {
    for (int i = 0; i < kSamples; ++i)
      r.samples_s.push_back(seconds * jitter());
    r.stats = summarize(r.samples_s);
    r.metrics = metric(r.stats.median);
    r.extra = {{"batch", 8}, {"robust_spread", 0.01}, {"stop", "converged"}, {"sampling_s", 0.1}};
    r.per_rank = nlohmann::json::array();
    for (int rank = 0; rank < r.gpus; ++rank) {
      // As the engine writes them (runtime/case.cpp): six significant digits, the rates of the
      // median_s as written, no time_us.
      const double mine = round_significant(seconds * jitter() * (rank == late ? 0.7 : 1.0), 6);
      nlohmann::json entry = identity(rank);
      entry["median_s"] = mine;
      const nlohmann::json figures = metric(mine);
      for (const auto& [key, value] : figures.items()) {
        if (key != "time_us") // median_s is the rank's time
          entry[key] =
              value.is_number() ? nlohmann::json(round_significant(value.get<double>(), 6)) : value;
      }
      r.per_rank.push_back(std::move(entry));
    }
  }
};

std::vector<int> sweep_counts(const ClusterShape& s) {
  std::vector<int> counts;
  for (int n = 1; n < s.gpus_per_node; n *= 2)
    counts.push_back(n);
  counts.push_back(s.gpus_per_node);
  for (int k = 2; k < s.nodes; k *= 2)
    counts.push_back(k * s.gpus_per_node);
  if (s.nodes > 1)
    counts.push_back(s.nodes * s.gpus_per_node);
  return counts;
}

void add_collectives(Maker& m, const RecordSink& f, int gpus) {
  const int world = m.shape.nodes * m.shape.gpus_per_node;
  const bool full = gpus <= m.shape.gpus_per_node || gpus == world;
  const int nodes = (gpus + m.shape.gpus_per_node - 1) / m.shape.gpus_per_node;
  for (const char* name : {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall"}) {
    const Collective kind = collective_from_name(name);
    const bool reduces = kind == Collective::all_reduce || kind == Collective::reduce_scatter;
    for (int i = 0; i < 24; ++i) {
      if (!full && i % 4 != 0 && i != 23)
        continue;
      const double bytes = std::ldexp(8.0, i);
      for (bool in_place : {false, true}) {
        nlohmann::json params{{"bytes", static_cast<std::uint64_t>(bytes)},
                              {"count", static_cast<std::uint64_t>(bytes / 4)},
                              {"dtype", "float"},
                              {"in_place", in_place}};
        if (reduces)
          params["op"] = "sum";
        Record r = m.base("collectives", name, params, gpus);
        const double factor = gpus > 1 ? busbw_factor(kind, gpus) : 0.0;
        const double bw = nodes > 1 ? 45e9 : 430e9;
        const double seconds = 8e-6 + 4e-6 * std::log2(gpus + 1) + bytes * factor / bw;
        const double node_factor = busbw_factor(kind, nodes);
        // One rank of the whole job arrives late to its all_reduce: the record names it.
        const int late = name == std::string("all_reduce") && gpus == world && gpus > 2
                             ? (world / 2 + m.shape.gpus_per_node / 2 + 1) % world
                             : -1;
        m.measured(
            r, seconds,
            [&](double s) {
              nlohmann::json j{{"time_us", s * 1e6},
                               {"algbw_gbps", bytes / s / 1e9},
                               {"busbw_gbps", bytes / s / 1e9 * factor}};
              if (nodes > 1)
                j["node_link_gbps"] = bytes / s / 1e9 * node_factor;
              return j;
            },
            late);
        r.extra["wrong_elements"] = 0;
        m.rank_timing(r, late);
        f(std::move(r));
      }
    }
  }
}

void add_compute_and_storage(Maker& m, const RecordSink& f, int gpus) {
  const double array = 1 << 30;
  for (const char* name : {"copy", "scale", "add", "triad", "read"}) {
    Record r = m.base("compute", name, {{"bytes", array}, {"dtype", "double"}}, gpus);
    const double moved = (std::string(name) == "read" ? 1 : 2) * array;
    m.measured(r, moved / 4.3e12, [&](double s) {
      return nlohmann::json{{"time_us", s * 1e6}, {"gbps", moved / s / 1e9 * gpus}};
    });
    f(std::move(r));
  }
  for (const char* dtype : {"float", "double", "fp16", "bf16"}) {
    Record r = m.base("compute", "fma_peak", {{"dtype", dtype}}, gpus);
    m.measured(r, 1e-3, [&](double s) {
      return nlohmann::json{{"time_us", s * 1e6}, {"tflops", 60e-3 / s * gpus}};
    });
    f(std::move(r));
  }
  for (const char* dtype : {"bf16", "fp16", "tf32", "fp8"}) {
    for (int n : {4096, 8192, 16384}) {
      Record r = m.base("compute", "gemm", {{"m", n}, {"n", n}, {"k", n}, {"dtype", dtype}}, gpus);
      const double flops = 2.0 * n * n * n;
      m.measured(r, flops / 700e12, [&](double s) {
        return nlohmann::json{{"time_us", s * 1e6}, {"tflops", flops / s / 1e12 * gpus}};
      });
      f(std::move(r));
    }
  }
  for (const char* name : {"seq_read", "rand_read", "read_to_gpu"}) {
    Record r = m.base("storage", name,
                      {{"bytes", 1 << 30},
                       {"block_bytes", 1 << 20},
                       {"queue_depth", 1},
                       {"file_bytes", 1 << 30},
                       {"io", "direct"}},
                      gpus);
    m.measured(r, 1073741824.0 * std::min(gpus, m.shape.gpus_per_node) / 10e9, [&](double s) {
      return nlohmann::json{{"time_us", s * 1e6}, {"gbps", 1073741824.0 / s / 1e9 * gpus}};
    });
    f(std::move(r));
  }
  for (const char* name : {"host_to_device", "device_to_host"}) {
    for (const char* memory : {"pinned", "pageable"}) {
      Record r = m.base("links", name, {{"bytes", 256 << 20}, {"memory", memory}}, gpus);
      m.measured(r, 268435456.0 / 55e9, [&](double s) {
        return nlohmann::json{{"time_us", s * 1e6}, {"gbps", 268435456.0 / s / 1e9}};
      });
      f(std::move(r));
    }
  }
}

// The round of unordered pair (a, b) of n members in a round-robin (circle) schedule, as
// bench/links/pair_schedule.hpp lays it out: n - 1 rounds for even n (a phantom makes n odd even).
int circle_round_count_of(int n) {
  return n < 2 ? 0 : (n % 2 == 0 ? n - 1 : n);
}

int circle_round(int n, int a, int b) {
  const int even = n % 2 == 0 ? n : n + 1;
  const int last = even - 1;
  if (a > b)
    std::swap(a, b);
  return b == last ? (2 * a) % last : (a + b) % last;
}

// One pair test at the whole job, laid out as bench/links/pair_test.cpp writes it across nodes on
// GPU nodes: within each node every GPU pair (both directions of a directed one); across nodes
// every node pair, all rails (GPU i with GPU i) at once, the node pair's figure its slowest rail.
// The record holds the node x node matrix, one g x g matrix per node, the round of each unit, one
// sample per unit (at most 16,384 of their order statistics) and each rank's figures.
void add_pair_record(Maker& m, const RecordSink& f, const std::string& name,
                     const std::string& dir) {
  constexpr std::size_t kMaxPairSamples = 16384; // bench/links/pair_test.cpp
  const int g = m.shape.gpus_per_node;
  const int nodes = m.shape.nodes;
  const int world = nodes * g;
  const bool latency = name == "pair_latency";
  const bool directed = dir == "uni";
  const double bytes = 64 << 20;
  Record r = m.base("links", name,
                    latency ? nlohmann::json{{"bytes", 8}}
                            : nlohmann::json{{"bytes", 64 << 20}, {"direction", dir}},
                    world);
  auto figure = [&](bool same_node) {
    return (latency ? (same_node ? 2.5 : 6.0) : (same_node ? 380.0 : 46.0)) *
           (latency ? m.jitter() : 1 / m.jitter());
  };
  auto seconds_of = [&](double v) { return latency ? v * 1e-6 : bytes / (v * 1e9); };
  std::vector<std::vector<double>> out_of(static_cast<std::size_t>(world)),
      into(static_cast<std::size_t>(world));
  std::vector<double> unit_seconds;
  nlohmann::json pair_rounds = nlohmann::json::array();
  const int intra_rounds = g > 1 ? (g % 2 == 0 ? g - 1 : g) : 0;
  auto measured = [&](int a, int b, double v, int round) {
    pair_rounds.push_back({a, b, round});
    unit_seconds.push_back(seconds_of(v));
    out_of[static_cast<std::size_t>(a)].push_back(v);
    into[static_cast<std::size_t>(b)].push_back(v);
    if (!directed) {
      out_of[static_cast<std::size_t>(b)].push_back(v);
      into[static_cast<std::size_t>(a)].push_back(v);
    }
  };
  nlohmann::json intra_matrices = nlohmann::json::array();
  for (int node = 0; node < nodes && g > 1; ++node) {
    std::vector<std::vector<nlohmann::json>> cells(static_cast<std::size_t>(g),
                                                   std::vector<nlohmann::json>(g));
    for (int i = 0; i < g; ++i) {
      for (int j = directed ? 0 : i + 1; j < g; ++j) {
        if (i == j)
          continue;
        const double v = figure(true);
        cells[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = v;
        if (!directed)
          cells[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] = v;
        measured(node * g + i, node * g + j, v, circle_round(g, i, j));
      }
    }
    nlohmann::json ranks = nlohmann::json::array();
    for (int i = 0; i < g; ++i)
      ranks.push_back(node * g + i);
    intra_matrices.push_back({{"node", node},
                              {"host", "gpu-node-" + std::to_string(node)},
                              {"ranks", std::move(ranks)},
                              {"matrix", cells}});
  }
  std::vector<std::vector<nlohmann::json>> node_cells(static_cast<std::size_t>(nodes),
                                                      std::vector<nlohmann::json>(nodes));
  for (int a = 0; a < nodes; ++a) {
    for (int b = directed ? 0 : a + 1; b < nodes; ++b) {
      if (a == b)
        continue;
      double slowest = 0;
      for (int rail = 0; rail < g; ++rail) {
        const double v = figure(false);
        slowest = rail == 0 ? v : (latency ? std::max(slowest, v) : std::min(slowest, v));
        out_of[static_cast<std::size_t>(a * g + rail)].push_back(v);
        into[static_cast<std::size_t>(b * g + rail)].push_back(v);
      }
      node_cells[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = slowest;
      if (!directed)
        node_cells[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)] = slowest;
      pair_rounds.push_back({a * g, b * g, intra_rounds + circle_round(nodes, a, b)});
      unit_seconds.push_back(seconds_of(slowest));
    }
  }
  r.stats = summarize(unit_seconds);
  r.extra["pairs"] = unit_seconds.size();
  if (unit_seconds.size() > kMaxPairSamples) {
    std::sort(unit_seconds.begin(), unit_seconds.end());
    for (std::size_t k = 0; k < kMaxPairSamples; ++k)
      r.samples_s.push_back(unit_seconds[k * (unit_seconds.size() - 1) / (kMaxPairSamples - 1)]);
  } else {
    r.samples_s = unit_seconds;
  }
  const std::string metric = latency ? "latency_us" : "gbps";
  r.metrics = {{"time_us", r.stats.median * 1e6},
               {metric, latency ? 6.0 : 46.0},
               {"min_pair_" + metric, latency ? 6.0 : 40.0},
               {"max_pair_" + metric, latency ? 7.0 : 46.0}};
  nlohmann::json members = nlohmann::json::array();
  for (int node = 0; node < nodes; ++node)
    members.push_back(m.identity(node * g));
  r.extra["schedule"] = "rounds";
  r.extra["rounds"] = intra_rounds + circle_round_count_of(nodes);
  r.extra["rounds_by_tier"] = {{"intra", intra_rounds}, {"inter", circle_round_count_of(nodes)}};
  r.extra["directed"] = directed;
  r.extra["pair_rounds"] = std::move(pair_rounds);
  r.extra["pair_rounds_layout"] =
      "[source rank, destination rank, round]; across nodes one entry per node pair, by the first "
      "rank of each node";
  r.extra["matrix"] = node_cells;
  r.extra["matrix_metric"] = metric;
  r.extra["matrix_of"] = "nodes";
  r.extra["matrix_layout"] = "rows = source node, columns = destination node (node order of "
                             "matrix_members); each cell is the node pair's slowest rail";
  r.extra["matrix_members"] = std::move(members);
  r.extra["intra_matrices"] = std::move(intra_matrices);
  r.extra["intra_matrices_layout"] =
      "per node: rows = source, columns = destination, in the order of its ranks";
  r.per_rank = nlohmann::json::array();
  for (int rank = 0; rank < world; ++rank) {
    nlohmann::json entry = m.identity(rank);
    if (!out_of[static_cast<std::size_t>(rank)].empty())
      entry[metric] = round_significant(median(out_of[static_cast<std::size_t>(rank)]), 6);
    if (!into[static_cast<std::size_t>(rank)].empty())
      entry["in_" + metric] = round_significant(median(into[static_cast<std::size_t>(rank)]), 6);
    r.per_rank.push_back(std::move(entry));
  }
  f(std::move(r));
}

} // namespace

nlohmann::json synthetic_cluster_run(const ClusterShape& shape) {
  nlohmann::json run = {{"id", "synthetic-" + std::to_string(shape.nodes) + "x" +
                                   std::to_string(shape.gpus_per_node)},
                        {"started", "2026-01-01T00:00:00Z"},
                        {"tool_version", "synthetic"},
                        {"backend", "cuda"}};
  nlohmann::json hosts = nlohmann::json::array();
  for (int node = 0; node < shape.nodes; ++node) {
    nlohmann::json devices = nlohmann::json::array();
    for (int d = 0; d < shape.gpus_per_node; ++d) {
      devices.push_back({{"index", d},
                         {"rank", node * shape.gpus_per_node + d},
                         {"name", "NVIDIA H200"},
                         {"uuid", "GPU-" + std::to_string(100000 + node * shape.gpus_per_node + d)},
                         {"memory_bytes", 150754820096LL}});
    }
    hosts.push_back(
        {{"host", "gpu-node-" + std::to_string(node)}, {"node", node}, {"devices", devices}});
  }
  run["hosts"] = std::move(hosts);
  return run;
}

void synthetic_cluster_records(const ClusterShape& shape, std::uint64_t seed,
                               const RecordSink& each) {
  Maker m{shape, std::mt19937_64(seed)};
  for (int gpus : sweep_counts(shape)) {
    add_compute_and_storage(m, each, gpus);
    add_collectives(m, each, gpus);
  }
  add_pair_record(m, each, "pair_bw", "uni");
  add_pair_record(m, each, "pair_bw", "bi");
  add_pair_record(m, each, "pair_latency", "");
}

} // namespace cb::perf
