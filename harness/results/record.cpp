#include "results/record.hpp"

#include "results/per_rank_rates.hpp"

namespace cb {

nlohmann::json stats_to_json(const Stats& s) {
  return {{"count", s.count}, {"median_s", s.median}, {"mean_s", s.mean}, {"min_s", s.min},
          {"max_s", s.max},   {"stddev_s", s.stddev}, {"cv", s.cv},       {"p05_s", s.p05},
          {"p95_s", s.p95},   {"p99_s", s.p99},       {"spike", s.spike}};
}

Stats stats_from_json(const nlohmann::json& j) {
  Stats s;
  s.count = j.value("count", std::size_t{0});
  s.median = j.value("median_s", 0.0);
  s.mean = j.value("mean_s", 0.0);
  s.min = j.value("min_s", 0.0);
  s.max = j.value("max_s", 0.0);
  s.stddev = j.value("stddev_s", 0.0);
  s.cv = j.value("cv", 0.0);
  s.p05 = j.value("p05_s", 0.0);
  s.p95 = j.value("p95_s", 0.0);
  s.p99 = j.value("p99_s", 0.0);
  s.spike = j.value("spike", 0.0);
  return s;
}

nlohmann::json straggler_to_json(const StragglerRank& s) {
  nlohmann::json out = {{"rank", s.rank},         {"host", s.host},
                        {"device", s.device},     {"shortest_share", s.shortest_share},
                        {"median_s", s.median_s}, {"others_median_s", s.others_median_s}};
  if (s.nvml_index >= 0)
    out["nvml_index"] = s.nvml_index;
  if (!s.pci_bus_id.empty())
    out["pci_bus_id"] = s.pci_bus_id;
  return out;
}

nlohmann::json record_to_json(const Record& r) {
  // The rates each entry's median_s gives are left to the loader (per_rank_rates.hpp).
  const std::vector<std::string> derived = derivable_rank_rates(r);
  nlohmann::json per_rank = r.per_rank;
  if (!derived.empty()) {
    for (auto& entry : per_rank)
      entry = without_rates(entry, derived);
  }
  nlohmann::json j = {{"suite", r.suite},
                      {"case", r.case_name},
                      {"params", r.params},
                      {"gpus", r.gpus},
                      {"nodes", r.nodes},
                      {"ranks_per_node", r.ranks_per_node},
                      {"tier", r.tier},
                      {"samples_s", r.samples_s},
                      {"stats", stats_to_json(r.stats)},
                      {"metrics", r.metrics},
                      {"per_rank", per_rank},
                      {"check", to_string(r.check)},
                      {"status", to_string(r.status)}};
  if (r.straggler)
    j["straggler"] = straggler_to_json(*r.straggler);
  if (!derived.empty())
    j["per_rank_derived"] = derived;
  if (!r.per_rank_run.empty())
    j["per_rank_run"] = r.per_rank_run;
  if (!r.reason.empty())
    j["reason"] = r.reason;
  if (!r.extra.empty())
    j["extra"] = r.extra;
  return j;
}

nlohmann::json results_to_json(const ResultsFile& f) {
  nlohmann::json records = nlohmann::json::array();
  for (const auto& r : f.records)
    records.push_back(record_to_json(r));
  return {{"schema", kResultsSchemaName},
          {"schema_version", kResultsSchemaVersion},
          {"run", f.run},
          {"records", std::move(records)},
          {"fits", f.fits}};
}

} // namespace cb
