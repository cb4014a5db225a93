#include "planning/time_model.hpp"

#include <algorithm>
#include <cmath>

#include "runtime/family.hpp"

namespace cb {

double log2_steps(int n) {
  return n > 1 ? std::ceil(std::log2(static_cast<double>(n))) : 0.0;
}

double param_number(const nlohmann::json& params, const char* key, double fallback) {
  const auto it = params.find(key);
  return it != params.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string param_text(const nlohmann::json& params, const char* key) {
  const auto it = params.find(key);
  return it != params.end() && it->is_string() ? it->get<std::string>() : "";
}

OperationEstimate estimate_operation(const std::string& suite, const std::string& name,
                                     const nlohmann::json& params, const PhaseShape& shape,
                                     const HardwareModel& model) {
  OperationEstimate e;
  if (const Family* family = FamilyRegistry::instance().find(suite)) {
    if (const auto seconds = family->operation_seconds(name, params, shape, model)) {
      e.seconds = *seconds;
      e.from_family = true;
    }
  }
  return e;
}

double operation_seconds(const std::string& suite, const std::string& name,
                         const nlohmann::json& params, const PhaseShape& shape,
                         const HardwareModel& model) {
  return estimate_operation(suite, name, params, shape, model).seconds;
}

double setup_seconds(const std::string& suite, const std::string& name,
                     const nlohmann::json& params, const PhaseShape& shape,
                     const HardwareModel& model) {
  const Family* family = FamilyRegistry::instance().find(suite);
  return family ? family->setup_seconds(name, params, shape, model) : 0.0;
}

double sync_seconds(const PhaseShape& shape, const HardwareModel& model) {
  const double intra = log2_steps(shape.ranks_per_node) * model.sync_step_intra_s;
  const double inter = log2_steps(shape.nodes) * model.sync_step_inter_s;
  return 3 * (intra + inter);
}

RecordEstimate estimate_measurement(double op_s, double sync_s, const MeasureSettings& s,
                                    bool launch_bound, double sample_extra_s) {
  RecordEstimate e;
  const int k = batch_for(op_s, s);
  e.batch = k;
  const double warmup = s.warmup_batches * (sync_s + op_s);
  const double calibration = sync_s + op_s + (k > 1 ? sync_s + k * op_s : 0.0);
  const double sample = k * op_s + sync_s + sample_extra_s;
  // Converging: min_samples and min_time.
  long long n =
      std::max<long long>(s.min_samples, static_cast<long long>(std::ceil(s.min_time_s / sample)));
  e.expect = s.stop_early ? "converged" : "window";
  if (launch_bound && s.stop_early && s.settle && s.settle_every > 0) {
    // The window looks at the spreads of prefixes, which swing while the prefixes are short:
    // evenly spread noise settles at the check after twice the window (160 samples with nvbench's
    // 64 and 16; tests/unit/runtime/test_engine_rules.cpp).
    const long long first_check = (2 * s.settle_window / s.settle_every + 2) * s.settle_every;
    if (first_check > n) {
      n = first_check;
      e.expect = "settled";
    }
  }
  n = std::min<long long>(n, s.max_samples);
  const long long at_cap =
      std::max<long long>(1, static_cast<long long>(std::ceil(s.max_time_s / sample)));
  if (at_cap < n) {
    n = at_cap;
    e.expect = "cap";
  }
  e.samples = static_cast<int>(n);
  e.sampling_s = static_cast<double>(n) * sample;
  e.seconds = warmup + calibration + e.sampling_s;
  return e;
}

} // namespace cb
