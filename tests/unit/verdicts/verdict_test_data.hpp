#pragma once
// Records and results files built in code for the verdict tests.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "results/record.hpp"

namespace cb::testing {

inline std::vector<double> lognormal_samples(std::uint64_t seed, double center, double sigma,
                                             int count) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<double> v;
  for (int i = 0; i < count; ++i)
    v.push_back(center * std::exp(noise(rng)));
  return v;
}

inline Record timed_record(const std::string& case_name, int gpus, std::vector<double> samples,
                           nlohmann::json params = {{"bytes", 1048576}}) {
  Record r;
  r.suite = "collectives";
  r.case_name = case_name;
  r.params = std::move(params);
  r.gpus = gpus;
  r.ranks_per_node = gpus;
  r.samples_s = std::move(samples);
  r.stats = summarize(r.samples_s);
  r.metrics = {{"time_us", r.stats.median * 1e6}, {"busbw_gbps", 1e-3 / r.stats.median}};
  r.check = DataCheck::pass;
  return r;
}

// An imported record: no samples, only figures.
inline Record metric_record(const std::string& case_name, int gpus, nlohmann::json metrics) {
  Record r;
  r.suite = "collectives";
  r.case_name = case_name;
  r.params = {{"bytes", 1048576}};
  r.gpus = gpus;
  r.ranks_per_node = gpus;
  r.metrics = std::move(metrics);
  return r;
}

inline ResultsFile results_of(std::vector<Record> records) {
  ResultsFile f;
  f.run = {{"id", "test"}, {"backend", "host"}};
  f.records = std::move(records);
  return f;
}

// A file under tests/fixtures/verdicts.
inline std::string verdict_fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/verdicts/" + name;
}

} // namespace cb::testing
