#include "runtime/run_config.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cb {

bool RunConfig::wants_suite(const std::string& suite) const {
  return suites.empty() || std::find(suites.begin(), suites.end(), suite) != suites.end();
}

BackendKind RunConfig::backend_in_use() const {
  if (!backend_kind)
    throw std::logic_error("the run's backend kind was never resolved");
  return *backend_kind;
}

bool RunConfig::wants_case(const std::string& suite, const std::string& name) const {
  if (!wants_suite(suite))
    return false;
  return cases.empty() || std::find(cases.begin(), cases.end(), name) != cases.end();
}

MeasureSettings quick_measure_settings() {
  MeasureSettings s;
  s.target_cv = 0.02;
  s.min_samples = 5; // enough for `check`'s significance test on a quick run
  s.min_time_s = 0.01;
  s.max_time_s = 0.2;
  s.batch_time_s = 0.001;
  s.window_s = 0.1;            // 10 samples of a 10 ms operation, at least min_samples
  s.launch_bound_cap_s = 0.03; // ~25 samples of a 1 ms batch, 2.5x a converging record
  return s;
}

} // namespace cb
