// The screen across nodes in the real pair tests (bench/links/pair_screen.hpp).
#include "links/pair_screen.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_set>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "diagnosis/topology.hpp"
#include "links/links_case.hpp"
#include "links/links_options.hpp"
#include "links/pair_run.hpp"

namespace cb {

std::vector<double> flow_rates(const std::vector<Flow>& flows, int rails,
                               const std::vector<ScreenFigure>& measured) {
  std::map<std::tuple<int, int, int>, double> rate;
  for (const auto& m : measured)
    rate[{m.src, m.dst, m.rail}] = m.rate;
  std::vector<double> out;
  out.reserve(flows.size() * static_cast<std::size_t>(std::max(rails, 0)));
  for (const Flow& f : flows) {
    for (int r = 0; r < rails; ++r) {
      auto it = rate.find({f.src, f.dst, r});
      if (it == rate.end())
        it = rate.find({f.dst, f.src, r});
      out.push_back(it == rate.end() ? 0.0 : it->second);
    }
  }
  return out;
}

void ScreenColumns::add(const ScreenFigure& f, int screen_round, double s) {
  src.push_back(f.src);
  dst.push_back(f.dst);
  rail.push_back(f.rail);
  round.push_back(screen_round);
  value.push_back(f.value);
  seconds.push_back(s);
}

nlohmann::json ScreenColumns::to_json() const {
  return {{"layout", "one entry per one-way figure: src and dst are node indices into "
                     "matrix_members, rail the GPU slot (0 on the host backend), round the screen "
                     "round, value in matrix_metric units"},
          {"src", src},
          {"dst", dst},
          {"rail", rail},
          {"round", round},
          {"value", value}};
}

namespace {

using Pair = std::pair<int, int>;

// The pair tests' rounds as run_screen's oracle: each call one screen round, measured as disjoint
// sub-rounds through measure_pair_rounds; rank 0's figures broadcast to every rank.
class ProbeOracle : public PairOracle {
public:
  ProbeOracle(PairRun& run, ScreenPass& pass) : run_(run), pass_(pass) {
    rails_ = 1;
    if (run.rails) {
      rails_ = static_cast<int>(run.tiers.members(0).size());
      for (int node = 1; node < run.tiers.nodes(); ++node)
        rails_ = std::min(rails_, static_cast<int>(run.tiers.members(node).size()));
    }
  }
  int nodes() const override { return run_.tiers.nodes(); }
  int rails() const override { return rails_; }

  std::vector<double> measure(const std::vector<Flow>& flows) override {
    const auto subs = disjoint_sub_rounds(flows);
    const int round = rounds_++;
    const PairTimes t = measure_pair_rounds(
        run_.ctx, static_cast<int>(subs.size()),
        [&](int r) {
          std::vector<Pair> out;
          for (const auto& [a, b] : subs[static_cast<std::size_t>(r)]) {
            for (const auto& p : run_.tiers.node_pair_ranks(a, b, run_.rails))
              out.push_back(p);
          }
          return out;
        },
        run_.probe,
        [this, round](int) {
          if (run_.progress)
            run_.progress->at("screen", round, round + 1);
        },
        {}, [this](Pair p, double seconds) { run_.add_pair(p, seconds); });
    add_times(t);
    std::vector<double> rates(flows.size() * static_cast<std::size_t>(rails_), 0.0);
    if (run_.root) {
      std::vector<ScreenFigure> figures;
      for (std::size_t k = 0; k < t.pairs.size(); ++k) {
        const auto [a, b] = t.pairs[k];
        ScreenFigure f;
        f.src = run_.tiers.node_index_of_rank(a);
        f.dst = run_.tiers.node_index_of_rank(b);
        f.rail = run_.rails ? run_.tiers.rail_of_rank(a) : 0;
        f.value = run_.value_of(t.median_s[k]);
        // The diagnosis wants higher is better: a latency is turned into a rate.
        f.rate = run_.rule.lower_is_better ? (f.value > 0 ? 1.0 / f.value : 0.0) : f.value;
        figures.push_back(f);
        pass_.columns.add(f, round, t.median_s[k]);
      }
      rates = flow_rates(flows, rails_, figures);
    }
    if (!rates.empty())
      run_.ctx.comm.broadcast(rates.data(), static_cast<int>(rates.size() * sizeof(double)));
    return rates;
  }

private:
  void add_times(const PairTimes& t) {
    PairTimes& sum = pass_.times;
    sum.rounds += t.rounds;
    sum.capped += t.capped;
    sum.settled += t.settled;
    sum.wrong += t.wrong;
    sum.sampling_s.insert(sum.sampling_s.end(), t.sampling_s.begin(), t.sampling_s.end());
    sum.samples.insert(sum.samples.end(), t.samples.begin(), t.samples.end());
  }

  PairRun& run_;
  ScreenPass& pass_;
  int rails_ = 1;
  int rounds_ = 0;
};

// The screen's groups: the leaves of --topology, or ceil(sqrt(N)) consecutive nodes.
void choose_groups(const PairRun& run, ScreenPass& pass) {
  const std::string path = kTopology.given(run.ctx.config).value_or("");
  if (path.empty()) {
    pass.group_of_node = sqrt_groups(run.tiers.nodes());
    const int count =
        pass.group_of_node.empty()
            ? 0
            : *std::max_element(pass.group_of_node.begin(), pass.group_of_node.end()) + 1;
    for (int g = 0; g < count; ++g)
      pass.group_names.push_back("group" + std::to_string(g));
    return;
  }
  // Rank 0 reads the file and tells the others: thousands of ranks each parsing it would be a
  // metadata storm on the shared file system the file usually sits on.
  const Communicator& comm = run.ctx.comm;
  std::string placed;
  if (comm.rank() == 0) {
    std::vector<std::string> hosts;
    for (int node = 0; node < run.tiers.nodes(); ++node)
      hosts.push_back(run.host_of_node(node).get<std::string>());
    // The run checked the job against the topology before the sweep (run_command.cpp); a file
    // changed since is still one decision for every rank, never rank 0 alone throwing.
    try {
      const HostPlacement placement = place_hosts(load_topology(path), hosts);
      placed = nlohmann::json{{"leaf_of_node", placement.leaf_of_node},
                              {"leaf_names", placement.leaf_names},
                              {"notes", placement.notes}}
                   .dump();
    } catch (const InputError& e) {
      placed = nlohmann::json{{"problem", e.what()}}.dump();
    }
  }
  const nlohmann::json placement = nlohmann::json::parse(comm.broadcast_string(placed));
  if (placement.contains("problem"))
    throw InputError(placement.at("problem").get<std::string>());
  pass.groups = "topology";
  pass.group_of_node = placement.at("leaf_of_node").get<std::vector<int>>();
  pass.group_names = placement.at("leaf_names").get<std::vector<std::string>>();
  pass.notes = placement.at("notes").get<std::vector<std::string>>();
}

} // namespace

void check_job_topology(const std::string& path, const std::vector<std::string>& host_of_rank) {
  std::vector<std::string> hosts;
  std::unordered_set<std::string> seen;
  for (const auto& host : host_of_rank) {
    if (seen.insert(host).second)
      hosts.push_back(host);
  }
  place_hosts(load_topology(path), hosts);
}

ScreenPass run_screen_pass(PairRun& run) {
  ScreenPass pass;
  choose_groups(run, pass);
  const auto start = std::chrono::steady_clock::now();
  ProbeOracle oracle(run, pass);
  pass.measurements = run_screen(oracle, pass.group_of_node, ScreenSettings{});
  pass.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& note : pass.measurements.notes)
    pass.notes.push_back(note);
  pass.measurements.observations.clear(); // the record keeps the columns, in its own units
  pass.measurements.observations.shrink_to_fit();
  return pass;
}

namespace {

// One value per node pair and round (its slowest rail), in seconds, for the record's statistics.
std::vector<double> screen_unit_seconds(const ScreenColumns& c) {
  std::map<std::tuple<int, int, int>, double> slowest;
  for (std::size_t i = 0; i < c.src.size(); ++i) {
    auto [it, added] = slowest.try_emplace({c.src[i], c.dst[i], c.round[i]}, c.seconds[i]);
    if (!added)
      it->second = std::max(it->second, c.seconds[i]); // longer: slower, for both metrics
  }
  std::vector<double> out;
  for (const auto& [key, s] : slowest)
    out.push_back(s);
  return out;
}

} // namespace

void write_screen_record(PairRun& run, const ScreenPass& screen) {
  Record& record = run.record;
  const ScreenSettings settings;
  write_sub_rounds(run, {&run.intra, &screen.times});
  record.extra["schedule"] = "screen";
  record.extra["rounds"] = run.intra.rounds + screen.measurements.rounds;
  record.extra["rounds_by_tier"] = {{"intra", run.intra.rounds},
                                    {"inter", screen.measurements.rounds}};
  record.extra["directed"] = run.probe.directed;
  record.extra["round_note"] =
      std::string("within nodes the round-robin rounds; across nodes the screen "
                  "(docs/DIAGNOSIS.md): each screen round's flows in disjoint sub-rounds") +
      (run.probe.directed ? ", each pair both ways in consecutive sub-rounds" : "");
  record.extra["matrix_metric"] = run.metric;
  write_matrix_members(run);
  record.extra["observations"] = screen.columns.to_json();
  record.extra["screen"] = {{"groups", screen.groups},
                            {"group_of_node", screen.group_of_node},
                            {"group_names", screen.group_names},
                            {"tests", screen.measurements.tests},
                            {"rounds", screen.measurements.rounds},
                            {"k_inside", settings.inside_partners},
                            {"k_across", settings.across_partners},
                            {"k_confirm", settings.confirm_partners},
                            {"notes", screen.notes},
                            {"seconds", screen.seconds},
                            {"sub_rounds", screen.times.rounds}};
  std::vector<double> units = screen_unit_seconds(screen.columns);
  std::vector<double> values;
  for (double s : units)
    values.push_back(run.value_of(s));
  std::vector<double> medians = run.intra.median_s;
  medians.insert(medians.end(), units.begin(), units.end());
  write_pair_samples(run, medians,
                     " (across nodes: each screened node pair's slowest rail in its round)",
                     " (across nodes: each screened node pair's slowest rail in its round)");
  record.metrics = {{"time_us", record.stats.median * 1e6}};
  if (!values.empty()) {
    record.metrics[run.metric] = median(values);
    record.metrics["min_pair_" + run.metric] = *std::min_element(values.begin(), values.end());
    record.metrics["max_pair_" + run.metric] = *std::max_element(values.begin(), values.end());
  }
  write_intra_matrices(run);
  write_per_rank(run);
}

} // namespace cb
