#include "verdicts/run_level_test.hpp"

#include <cmath>
#include <numeric>

#include "core/stats.hpp"
#include "verdicts/student_t.hpp"

namespace cb {
namespace {

std::vector<double> logs_of(const std::vector<double>& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values)
    out.push_back(std::log(v));
  return out;
}

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// Two-sided p of a t statistic; a zero standard error means the figures are identical on each
// side: no change (p 1) or a change no spread explains (p 0).
double two_sided_p(double difference, double standard_error, double df) {
  if (!(standard_error > 0))
    return difference == 0 ? 1.0 : 0.0;
  return 2 * student_t_cdf(-std::fabs(difference / standard_error), df);
}

// The log change a test of this standard error and df detects with the given power.
double detectable_log_change(double standard_error, double df, const RunLevelOptions& o) {
  return (student_t_quantile(1 - o.alpha / 2, df) + student_t_quantile(o.power, df)) *
         standard_error;
}

void finish(RunLevelResult& r) {
  r.change = std::expm1(r.log_change);
}

} // namespace

const char* to_string(RunTest test) {
  switch (test) {
  case RunTest::none:
    return "none";
  case RunTest::welch:
    return "welch";
  case RunTest::against_baseline_spread:
    return "against_baseline_spread";
  case RunTest::paired:
    return "paired";
  }
  return "unknown";
}

RunLevelResult compare_runs(const std::vector<double>& baseline, const std::vector<double>& current,
                            const RunLevelOptions& options) {
  RunLevelResult r;
  r.baseline_runs = baseline.size();
  r.current_runs = current.size();
  if (baseline.empty() || current.empty()) {
    r.why_none = "no run on one side";
    return r;
  }
  const std::vector<double> lb = logs_of(baseline), lc = logs_of(current);
  const double nb = static_cast<double>(lb.size()), nc = static_cast<double>(lc.size());
  r.log_change = mean_of(lc) - mean_of(lb);
  finish(r);
  if (lb.size() == 1 && lc.size() == 1) {
    r.why_none = kOneRunASide;
    return r;
  }
  if (lb.size() == 1) {
    r.why_none = "one baseline run shows no run-to-run spread to judge " +
                 std::to_string(lc.size()) + " current runs against";
    return r;
  }
  const double sb = stddev(lb);
  r.spread = sb;
  // The detectable change assumes the current side spreads as the baseline does: it is what this
  // runner can see, known before the change is measured.
  const double baseline_df = nb - 1;
  r.detectable =
      std::expm1(detectable_log_change(sb * std::sqrt(1 / nb + 1 / nc), baseline_df, options));
  if (lc.size() == 1) {
    r.test = RunTest::against_baseline_spread;
    r.p_value = two_sided_p(r.log_change, sb * std::sqrt(1 / nb + 1), baseline_df);
    return r;
  }
  r.test = RunTest::welch;
  const double vb = sb * sb / nb, sc = stddev(lc), vc = sc * sc / nc;
  const double se = std::sqrt(vb + vc);
  const double denominator = vb * vb / (nb - 1) + vc * vc / (nc - 1);
  const double df = denominator > 0 ? (vb + vc) * (vb + vc) / denominator : nb + nc - 2;
  r.p_value = two_sided_p(r.log_change, se, df);
  return r;
}

RunLevelResult compare_paired_runs(const std::vector<double>& baseline,
                                   const std::vector<double>& current,
                                   const RunLevelOptions& options) {
  RunLevelResult r;
  r.baseline_runs = baseline.size();
  r.current_runs = current.size();
  if (baseline.size() != current.size()) {
    r.why_none = "paired runs need as many baseline runs as current ones";
    return r;
  }
  if (baseline.empty()) {
    r.why_none = "no run on one side";
    return r;
  }
  std::vector<double> ratios;
  for (std::size_t i = 0; i < baseline.size(); ++i)
    ratios.push_back(std::log(current[i]) - std::log(baseline[i]));
  r.log_change = mean_of(ratios);
  finish(r);
  if (ratios.size() < 2) {
    r.why_none = kOneRunASide;
    return r;
  }
  const double n = static_cast<double>(ratios.size());
  r.test = RunTest::paired;
  r.spread = stddev(ratios);
  const double se = r.spread / std::sqrt(n);
  r.p_value = two_sided_p(r.log_change, se, n - 1);
  r.detectable = std::expm1(detectable_log_change(se, n - 1, options));
  return r;
}

} // namespace cb
