#include "workload/step_parts.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace cb {

double StepParts::unaccounted_s() const {
  return std::max(0.0, step_s - compute_s - exposed_comm_s - input_wait_s);
}

double StepParts::gap() const {
  if (!(step_s > 0))
    return 0;
  return std::abs(compute_s + exposed_comm_s + input_wait_s - step_s) / step_s;
}

StepParts median_step(const std::vector<StepParts>& steps) {
  if (steps.empty())
    return {};
  std::vector<std::size_t> order(steps.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return steps[a].step_s < steps[b].step_s; });
  const std::size_t n = steps.size();
  if (n % 2 == 1)
    return steps[order[n / 2]];
  const StepParts& a = steps[order[n / 2 - 1]];
  const StepParts& b = steps[order[n / 2]];
  return {(a.step_s + b.step_s) / 2,
          (a.compute_s + b.compute_s) / 2,
          (a.exposed_comm_s + b.exposed_comm_s) / 2,
          (a.input_wait_s + b.input_wait_s) / 2,
          (a.backward_s + b.backward_s) / 2,
          (a.update_s + b.update_s) / 2};
}

std::vector<double> pack_steps(const std::vector<StepParts>& steps) {
  std::vector<double> values;
  values.reserve(steps.size() * kStepPartsFields);
  for (const StepParts& s : steps) {
    values.insert(values.end(), {s.step_s, s.compute_s, s.exposed_comm_s, s.input_wait_s,
                                 s.backward_s, s.update_s});
  }
  return values;
}

std::vector<StepParts> unpack_steps(const std::vector<double>& values) {
  if (values.size() % kStepPartsFields != 0)
    throw std::invalid_argument("step parts: " + std::to_string(values.size()) +
                                " values are not whole steps");
  std::vector<StepParts> steps;
  for (std::size_t i = 0; i < values.size(); i += kStepPartsFields) {
    steps.push_back(
        {values[i], values[i + 1], values[i + 2], values[i + 3], values[i + 4], values[i + 5]});
  }
  return steps;
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
