#include "workload/step_parts.hpp"

#include <algorithm>
#include <cmath>

#include "core/stats.hpp"

namespace cb {

double StepParts::unaccounted_s() const {
  return std::max(0.0, step_s - compute_s - exposed_comm_s - input_wait_s);
}

double StepParts::gap() const {
  if (!(step_s > 0))
    return 0;
  return std::abs(compute_s + exposed_comm_s + input_wait_s - step_s) / step_s;
}

StepParts median_parts(const std::vector<StepParts>& steps) {
  StepParts m;
  if (steps.empty())
    return m;
  auto column = [&](double StepParts::*field) {
    std::vector<double> v;
    v.reserve(steps.size());
    for (const auto& s : steps)
      v.push_back(s.*field);
    return median(v);
  };
  m.step_s = column(&StepParts::step_s);
  m.compute_s = column(&StepParts::compute_s);
  m.exposed_comm_s = column(&StepParts::exposed_comm_s);
  m.input_wait_s = column(&StepParts::input_wait_s);
  return m;
}

std::string largest_loss(const StepParts& parts) {
  const double exposed = parts.exposed_comm_s, input = parts.input_wait_s,
               other = parts.unaccounted_s();
  if (!(exposed + input + other > kNegligibleLoss * parts.step_s))
    return "none";
  if (exposed >= input && exposed >= other)
    return "exposed_comm";
  return input >= other ? "input_wait" : "unaccounted";
}

} // namespace cb
