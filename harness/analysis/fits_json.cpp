#include "analysis/fits_json.hpp"

#include <cmath>

namespace cb {
namespace {

using nlohmann::json;

// Numbers that are not finite (or absent) are written as null rather than as invalid JSON.
json number_or_null(std::optional<double> v) {
  return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

json number_if(bool ok, double v) {
  return number_or_null(ok ? std::optional<double>(v) : std::nullopt);
}

} // namespace

json usl_to_json(const UslFit& fit) {
  return {{"method", std::string(usl_method_name(fit.method))},
          {"alpha", number_if(fit.ok, fit.alpha)},
          {"beta", number_if(fit.ok, fit.beta)},
          {"gamma", number_if(fit.ok, fit.gamma)},
          {"n_peak", number_or_null(fit.ok ? fit.n_peak : std::nullopt)},
          {"peak_throughput", number_or_null(fit.ok ? fit.peak_throughput : std::nullopt)},
          {"r2", number_if(fit.ok, fit.r2)},
          {"points", fit.points},
          {"warnings", fit.warnings}};
}

json amdahl_to_json(const AmdahlFit& fit) {
  return {{"serial_fraction", number_if(fit.ok, fit.serial_fraction)},
          {"max_speedup", number_or_null(fit.ok ? fit.max_speedup : std::nullopt)},
          {"r2", number_if(fit.ok, fit.r2)},
          {"points", fit.points},
          {"warnings", fit.warnings}};
}

json hockney_to_json(const HockneyFit& fit) {
  return {{"case", fit.case_name},
          {"params", fit.params},
          {"gpus", fit.gpus},
          {"tier", fit.tier},
          {"latency_us", number_if(fit.ok, fit.latency_s * 1e6)},
          {"seconds_per_byte", number_if(fit.ok, fit.seconds_per_byte)},
          {"bandwidth_gbps", number_if(fit.ok && fit.seconds_per_byte > 0, fit.bandwidth_gbps())},
          {"r2", number_if(fit.ok, fit.r2)},
          {"points", fit.points},
          {"min_bytes", fit.min_bytes},
          {"max_bytes", fit.max_bytes},
          {"warnings", fit.warnings}};
}

json ring_all_reduce_to_json(const RingAllReduceFit& fit) {
  return {{"tier", fit.tier},
          {"alpha_us", number_if(fit.ok, fit.alpha_s * 1e6)},
          {"beta_s_per_byte", number_if(fit.ok, fit.beta_s_per_byte)},
          {"bandwidth_gbps", number_if(fit.ok && fit.beta_s_per_byte > 0, fit.bandwidth_gbps())},
          {"r2", number_if(fit.ok, fit.r2)},
          {"points", fit.points},
          {"gpus", fit.gpus},
          {"warnings", fit.warnings}};
}

json curve_fits_to_json(const CurveFits& fits) {
  const Curve& c = fits.curve;
  json efficiency = json::array();
  for (const auto& e : fits.efficiency.value)
    efficiency.push_back(number_or_null(e));
  json out = {{"suite", c.key.suite},
              {"case", c.key.case_name},
              {"params", c.key.params},
              {"metric", c.key.metric},
              {"tier_info", c.key.tier_info},
              {"gpus", c.gpus},
              {"nodes", c.nodes},
              {"values", c.value},
              {"efficiency", efficiency},
              {"efficiency_base_gpus",
               fits.efficiency.base_gpus > 0 ? json(fits.efficiency.base_gpus) : json(nullptr)},
              {"warnings", fits.efficiency.warnings}};
  if (fits.usl)
    out["usl"] = usl_to_json(*fits.usl);
  if (fits.usl_linearised)
    out["usl_linearised"] = usl_to_json(*fits.usl_linearised);
  if (fits.amdahl)
    out["amdahl"] = amdahl_to_json(*fits.amdahl);
  return out;
}

json scaling_analysis_to_json(const ScalingAnalysis& analysis) {
  json curves = json::array(), per_gpu_count = json::array(), ring = json::array();
  for (const auto& c : analysis.curves)
    curves.push_back(curve_fits_to_json(c));
  for (const auto& h : analysis.hockney)
    per_gpu_count.push_back(hockney_to_json(h));
  for (const auto& r : analysis.ring_all_reduce)
    ring.push_back(ring_all_reduce_to_json(r));
  return {{"curves", curves},
          {"alpha_beta", {{"per_gpu_count", per_gpu_count}, {"ring_all_reduce", ring}}}};
}

void store_fits(ResultsFile& results, const ScalingAnalysis& analysis) {
  if (!results.fits.is_object())
    results.fits = json::object();
  const json section = scaling_analysis_to_json(analysis);
  for (const auto& [key, value] : section.items())
    results.fits[key] = value;
}

} // namespace cb
