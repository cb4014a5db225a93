#include "planning/measured_link.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/units.hpp"
#include "results/results_io.hpp"
#include "runtime/communicator.hpp"
#include "runtime/family.hpp"
#include "runtime/topology.hpp"

namespace cb {
namespace {

// Above this a per-rank rate is no link's (80 Tbit/s; the fastest NICs move 800 Gbit/s): a
// record claiming it is damaged or hand-made, and a plan priced on it would be silently wrong.
constexpr double kMaxLinkGBps = 10000;

double number_or(const nlohmann::json& object, const char* key, double fallback) {
  if (!object.is_object())
    return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

bool measured_across_nodes(const Record& r, const char* case_name) {
  return r.suite == "links" && r.case_name == case_name && r.tier == "inter" && r.nodes >= 2 &&
         (r.status == RecordStatus::ok || r.status == RecordStatus::noisy);
}

// The record's gbps, checked: a figure no link reaches is refused, naming the record.
double checked_gbps(const Record& r, std::size_t index, const std::string& path) {
  const auto it = r.metrics.find("gbps");
  if (it == r.metrics.end() || !it->is_number())
    throw InputError(path + ": records[" + std::to_string(index) + "] (links/" + r.case_name +
                     " across nodes) has no metrics.gbps to take the link rate from");
  const double gbps = it->get<double>();
  if (!(gbps > 0) || gbps > kMaxLinkGBps || !std::isfinite(gbps))
    throw InputError(path + ": records[" + std::to_string(index) + "] (links/" + r.case_name +
                     "): metrics.gbps " + shown(it->dump(), 24) + " is not a link rate (0 .. " +
                     format_gbps(kMaxLinkGBps) + " per rank)");
  return gbps;
}

// "8M, " (the record's size, as every command prints it), or "" without one.
std::string size_text(const Record& r) {
  const double bytes = number_or(r.params, "bytes", 0);
  return bytes >= 1 && bytes < 1e18 ? format_size(static_cast<std::uint64_t>(bytes)) + ", " : "";
}

// The non-empty cells of a node x node matrix: the node pairs the median is over.
long long matrix_cells(const nlohmann::json& extra) {
  const auto it = extra.is_object() ? extra.find("matrix") : extra.end();
  if (it == extra.end() || !it->is_array())
    return 0;
  long long cells = 0;
  for (const auto& row : *it) {
    if (!row.is_array())
      return 0;
    for (const auto& cell : row)
      cells += cell.is_number() ? 1 : 0;
  }
  return cells;
}

bool is_one_way(const nlohmann::json& params) {
  const auto it = params.is_object() ? params.find("direction") : params.end();
  return it != params.end() && it->is_string() && *it == "uni";
}

// The best record of `case_name` across nodes: the largest size, then the most ranks; -1: none.
long best_record(const ResultsFile& results, const char* case_name, bool one_way_only) {
  long best = -1;
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    const Record& r = results.records[i];
    if (!measured_across_nodes(r, case_name))
      continue;
    if (one_way_only && !is_one_way(r.params))
      continue;
    if (best < 0) {
      best = static_cast<long>(i);
      continue;
    }
    const Record& b = results.records[static_cast<std::size_t>(best)];
    const double bytes = number_or(r.params, "bytes", 0),
                 best_bytes = number_or(b.params, "bytes", 0);
    if (bytes > best_bytes || (bytes == best_bytes && r.gpus > b.gpus))
      best = static_cast<long>(i);
  }
  return best;
}

} // namespace

PlanLink measured_link_of(const ResultsFile& results, const std::string& path,
                          const std::string& backend) {
  const auto run_backend = results.run.find("backend");
  if (run_backend != results.run.end() && run_backend->is_string() && *run_backend != backend)
    throw InputError(path + ": run.backend is " + shown(run_backend->get<std::string>(), 20) +
                     "; a link measured by another backend does not plan a " + backend + " run");
  const std::string where = "measured in " + shown(path) + ": ";
  if (const long i = best_record(results, "pair_bw", true); i >= 0) {
    const Record& r = results.records[static_cast<std::size_t>(i)];
    const double gbps = checked_gbps(r, static_cast<std::size_t>(i), path);
    const long long pairs = matrix_cells(r.extra);
    return {gbps * 1e9, where + "pair_bw median over " +
                            (pairs > 0 ? std::to_string(pairs) + " node pairs" : "its node pairs") +
                            " (" + size_text(r) + std::to_string(r.nodes) + " nodes)"};
  }
  if (const long i = best_record(results, "ring_bw", false); i >= 0) {
    const Record& r = results.records[static_cast<std::size_t>(i)];
    const double gbps = checked_gbps(r, static_cast<std::size_t>(i), path) / std::max(1, r.gpus);
    return {gbps * 1e9, where + "ring_bw of " + std::to_string(r.gpus) + " ranks on " +
                            std::to_string(r.nodes) + " nodes, aggregate / ranks (" + size_text(r) +
                            "no pair_bw direction=uni across nodes)"};
  }
  throw InputError(path + ": no links/pair_bw (direction=uni) or links/ring_bw record measured "
                          "across nodes (status ok or noisy) to take the link rate from; run "
                          "--suite links on 2 or more nodes, or give --plan-link");
}

PlanLink plan_link_from(double link_bps, const std::string& link_text, const std::string& from_path,
                        const std::string& backend) {
  PlanLink measured;
  if (!from_path.empty())
    measured = measured_link_of(load_results(from_path), from_path, backend);
  if (link_bps > 0) {
    std::string source = "--plan-link " + shown(link_text, 40);
    if (!from_path.empty())
      source += " (given; wins over " + format_gbps(measured.bytes_per_s * 1e-9) + " per rank " +
                measured.source + ")";
    return {link_bps, source};
  }
  return measured;
}

void resolve_plan_link(RunConfig& config, const std::string& backend) {
  if (config.plan_from.empty() && !config.plan_link_source.empty())
    return; // resolved already
  const PlanLink link =
      plan_link_from(config.plan_link_bps, config.plan_link_text, config.plan_from, backend);
  config.plan_link_bps = link.bytes_per_s;
  config.plan_link_source = link.source;
}

void share_plan_link(const Communicator& world, RunConfig& config, const std::string& backend) {
  if (config.plan_from.empty())
    return; // the flags alone: every rank parsed the same
  std::string problem;
  if (world.rank() == 0) {
    try {
      resolve_plan_link(config, backend);
    } catch (const InputError& e) {
      problem = e.what();
    }
  }
  if (problem = world.broadcast_string(problem); !problem.empty())
    throw InputError(problem);
  double bps = config.plan_link_bps;
  world.broadcast(&bps, sizeof bps);
  config.plan_link_bps = bps;
  config.plan_link_source = world.broadcast_string(config.plan_link_source);
}

bool wants_link_calibration(const RunConfig& config, const NodeLayout& layout,
                            const std::vector<int>& counts,
                            const std::vector<std::string>& suites) {
  if (config.plan_link_bps > 0 || !config.plan_link_source.empty() || !config.plan_from.empty())
    return false;
  if (counts.empty() || layout.node_count() < 2)
    return false;
  const int largest = *std::max_element(counts.begin(), counts.end());
  if (placement_of(layout, members_for_count(layout, largest)).nodes < 2)
    return false;
  return std::any_of(suites.begin(), suites.end(), [](const std::string& suite) {
    const Family* family = FamilyRegistry::instance().find(suite);
    return family && family->plans_on_inter_link();
  });
}

} // namespace cb
