#include "results/record_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/stats.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

// clusterbench writes doubles to 17 digits, which read back exactly; the slack is for files whose
// figures were written to 6 significant digits (a median of two such samples has a seventh) and
// for sums taken in another order. An edit of a figure moves it by far more.
constexpr double kRelativeSlack = 1e-5;

std::string figure(double value) {
  return format_figure_compact(value, 6);
}

bool at_most(double a, double b) {
  return a <= b + kRelativeSlack * std::max(std::fabs(a), std::fabs(b));
}

bool close_to(double a, double b, double relative, double absolute) {
  return std::fabs(a - b) <= std::max(absolute, relative * std::max(std::fabs(a), std::fabs(b)));
}

[[noreturn]] void contradiction(const std::string& where, const std::string& what) {
  throw InputError(where + ": " + what + "; the record's figures contradict each other");
}

void check_stats_order(const Stats& s, const std::string& where) {
  // A p99 of 0 is one nobody knows (a file from before p99 was kept, without samples to take it
  // from): it is left out of the order.
  std::vector<std::pair<const char*, double>> ordered = {
      {"min_s", s.min}, {"p05_s", s.p05}, {"median_s", s.median}, {"p95_s", s.p95}};
  if (s.p99 > 0)
    ordered.emplace_back("p99_s", s.p99);
  ordered.emplace_back("max_s", s.max);
  for (std::size_t i = 1; i < ordered.size(); ++i) {
    const auto& [low_name, low] = ordered[i - 1];
    const auto& [high_name, high] = ordered[i];
    if (!at_most(low, high)) {
      contradiction(where, std::string("stats.") + low_name + " " + figure(low) +
                               " is above stats." + high_name + " " + figure(high));
    }
  }
  if (!at_most(s.min, s.mean) || !at_most(s.mean, s.max)) {
    contradiction(where, "stats.mean_s " + figure(s.mean) + " is outside stats.min_s.." +
                             "stats.max_s " + figure(s.min) + ".." + figure(s.max));
  }
  // A sample standard deviation never exceeds the range of its samples (of identical samples it
  // is 0 give or take the rounding of the sums).
  if (s.stddev > (s.max - s.min) + kRelativeSlack * s.max) {
    contradiction(where, "stats.stddev_s " + figure(s.stddev) +
                             " is wider than the samples' range " + figure(s.max - s.min));
  }
}

void check_stats_against_samples(const Record& r, const std::string& where) {
  const Stats& s = r.stats;
  if (r.samples_s.empty())
    return; // a record that keeps no samples: its stats are all there is
  if (s.count < r.samples_s.size()) {
    contradiction(where, "stats.count is " + std::to_string(s.count) + " and samples_s holds " +
                             std::to_string(r.samples_s.size()));
  }
  const auto [lowest, highest] = std::minmax_element(r.samples_s.begin(), r.samples_s.end());
  if (!close_to(*lowest, s.min, kRelativeSlack, 0) ||
      !close_to(*highest, s.max, kRelativeSlack, 0)) {
    contradiction(where, "samples_s spans " + figure(*lowest) + ".." + figure(*highest) +
                             " s and stats.min_s..stats.max_s say " + figure(s.min) + ".." +
                             figure(s.max));
  }
  if (s.count == r.samples_s.size()) {
    // Every sample is kept: the median is theirs.
    const double m = median(r.samples_s);
    if (!close_to(m, s.median, kRelativeSlack, 0)) {
      contradiction(where, "stats.median_s is " + figure(s.median) +
                               " and the median of samples_s " + figure(m));
    }
  }
}

void check_metrics_against_time(const Record& r, const std::string& where) {
  if (r.stats.median <= 0 || !r.metrics.is_object())
    return;
  if (const auto t = r.metrics.find("time_us"); t != r.metrics.end()) {
    // Importers keep a tool's time to its printed 2 decimals of a microsecond.
    const double time_us = t->get<double>();
    if (!close_to(time_us, r.stats.median * 1e6, 1e-3, 0.006)) {
      contradiction(where, "metrics.time_us is " + figure(time_us) + " and stats.median_s " +
                               figure(r.stats.median) + " s");
    }
  }
  const auto algbw = r.metrics.find("algbw_gbps");
  const auto bytes = r.params.find("bytes");
  if (r.suite != suite_names::kCollectives || algbw == r.metrics.end() || bytes == r.params.end() ||
      !bytes->is_number())
    return;
  // nccl-tests and OSU print bandwidths to 2 decimals: 0.005 GB/s of slack, and 1 % for their
  // rounded times.
  const double expected = bytes->get<double>() / r.stats.median / 1e9;
  if (!close_to(algbw->get<double>(), expected, 0.01, 0.006)) {
    contradiction(where, "metrics.algbw_gbps is " + figure(algbw->get<double>()) + " and " +
                             "params.bytes / stats.median_s is " + figure(expected) + " GB/s");
  }
}

} // namespace

void check_record_figures(const Record& record, const std::string& where) {
  check_stats_order(record.stats, where);
  check_stats_against_samples(record, where);
  check_metrics_against_time(record, where);
}

} // namespace cb
