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
      // As the engine writes them (runtime/case.cpp): six significant digits, no time_us.
      const double mine = seconds * jitter() * (rank == late ? 0.7 : 1.0);
      nlohmann::json entry = identity(rank);
      entry["median_s"] = round_significant(mine, 6);
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

// One pair test at the whole job: the pairs its rounds measure (every GPU i of node a with GPU i
// of node b, every GPU pair within a node), as a matrix over every rank (null where not measured),
// one sample per measured pair (its median), and each rank's row median.
void add_pair_record(Maker& m, const RecordSink& f, const std::string& name,
                     const std::string& dir) {
  const int g = m.shape.gpus_per_node;
  const int world = m.shape.nodes * g;
  const bool latency = name == "pair_latency";
  Record r = m.base("links", name,
                    latency ? nlohmann::json{{"bytes", 8}}
                            : nlohmann::json{{"bytes", 64 << 20}, {"direction", dir}},
                    world);
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(world));
  nlohmann::json matrix = nlohmann::json::array();
  for (int a = 0; a < world; ++a) {
    nlohmann::json row = nlohmann::json::array();
    for (int b = 0; b < world; ++b) {
      const bool same_node = a / g == b / g;
      const bool rail = a % g == b % g;
      if (a == b || (!same_node && !rail)) {
        row.push_back(nullptr);
        continue;
      }
      const double v = (latency ? (same_node ? 2.5 : 6.0) : (same_node ? 380.0 : 46.0)) *
                       (latency ? m.jitter() : 1 / m.jitter());
      row.push_back(v);
      rows[static_cast<std::size_t>(a)].push_back(v);
      if (a < b || dir == "uni")
        r.samples_s.push_back(latency ? v * 1e-6 : (64 << 20) / (v * 1e9));
    }
    matrix.push_back(std::move(row));
  }
  r.stats = summarize(r.samples_s);
  const std::string metric = latency ? "latency_us" : "gbps";
  r.metrics = {{"time_us", r.stats.median * 1e6}, {metric, latency ? 2.5 : 46.0}};
  r.extra = {{"matrix", std::move(matrix)},
             {"matrix_layout", "rows = source rank, columns = destination rank (comm order)"},
             {"pairs", r.samples_s.size()},
             {"schedule", "rounds"}};
  r.per_rank = nlohmann::json::array();
  for (int rank = 0; rank < world; ++rank) {
    nlohmann::json entry = m.identity(rank);
    entry[metric] = median(rows[static_cast<std::size_t>(rank)]);
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
