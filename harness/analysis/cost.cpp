#include "analysis/cost.hpp"

#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "core/format.hpp"

namespace cb {
namespace {

std::string plain(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Bounds past which a figure is a typo rather than a job: they keep every product below 1e24, so
// no cost overflows to inf and every figure prints in full.
constexpr double kMaxGpuHours = 1e12;
constexpr double kMaxPrice = 1e6;
constexpr double kMinFraction = 1e-6;

void require_fraction(double value, const char* flag, const char* what) {
  if (!(value >= kMinFraction && value <= 1)) {
    throw InputError(std::string(flag) + ": " + what + " must be in [1e-06, 1], got " +
                     plain(value));
  }
}

} // namespace

CostEstimate estimate_cost(const CostInputs& inputs) {
  if (!(inputs.gpu_hours > 0 && inputs.gpu_hours <= kMaxGpuHours)) {
    throw InputError("--gpu-hours: must be greater than 0 and at most 1e12, got " +
                     plain(inputs.gpu_hours));
  }
  if (!(inputs.price_per_gpu_hour > 0 && inputs.price_per_gpu_hour <= kMaxPrice)) {
    throw InputError(
        "--price: the price per GPU-hour must be greater than 0 and at most 1e6, got " +
        plain(inputs.price_per_gpu_hour));
  }
  if (inputs.gpus < 1 || inputs.gpus > 1'000'000'000) {
    throw InputError("--gpus: must be 1..1000000000, got " + std::to_string(inputs.gpus));
  }
  require_fraction(inputs.efficiency, "--efficiency", "the scaling efficiency");
  if (inputs.utilization)
    require_fraction(*inputs.utilization, "--utilization", "the utilization");

  CostEstimate e;
  e.inputs = inputs;
  e.wall_hours = inputs.gpu_hours / (inputs.gpus * inputs.efficiency);
  e.wall_days = e.wall_hours / 24;
  e.cost = inputs.gpus * e.wall_hours * inputs.price_per_gpu_hour;
  e.ideal_cost = inputs.gpu_hours * inputs.price_per_gpu_hour;
  e.overhead_fraction = e.cost / e.ideal_cost - 1;
  if (inputs.utilization)
    e.cost_per_useful_gpu_hour = inputs.price_per_gpu_hour / *inputs.utilization;
  return e;
}

std::string format_money(double amount) {
  const bool negative = amount < 0;
  const std::string digits = format_fixed(std::abs(amount), 2);
  const std::size_t point = digits.find('.');
  std::string whole = digits.substr(0, point);
  for (std::size_t i = whole.size(); i > 3; i -= 3)
    whole.insert(i - 3, ",");
  return std::string(negative ? "-$" : "$") + whole + digits.substr(point);
}

std::string format_cost(const CostEstimate& e) {
  std::string text =
      std::to_string(e.inputs.gpus) + (e.inputs.gpus == 1 ? " GPU" : " GPUs") + " at " +
      format_percent_fixed(e.inputs.efficiency) + " efficiency: " + format_fixed(e.wall_hours, 2) +
      " h (" + format_fixed(e.wall_days, 2) + " days), " + format_money(e.cost) + ", " +
      format_percent_fixed(e.overhead_fraction) + " over the ideal " + format_money(e.ideal_cost);
  if (e.cost_per_useful_gpu_hour) {
    text += "\nat " + format_percent_fixed(*e.inputs.utilization) +
            " utilization each useful GPU-hour costs " + format_money(*e.cost_per_useful_gpu_hour) +
            " (list price " + format_money(e.inputs.price_per_gpu_hour) + ")";
  }
  return text;
}

nlohmann::json cost_to_json(const CostEstimate& e) {
  nlohmann::json out = {{"wall_hours", e.wall_hours},
                        {"wall_days", e.wall_days},
                        {"cost", e.cost},
                        {"ideal_cost", e.ideal_cost},
                        {"overhead_fraction", e.overhead_fraction},
                        {"efficiency", e.inputs.efficiency},
                        {"gpus", e.inputs.gpus},
                        {"gpu_hours", e.inputs.gpu_hours},
                        {"price_per_gpu_hour", e.inputs.price_per_gpu_hour}};
  if (e.cost_per_useful_gpu_hour) {
    out["utilization"] = *e.inputs.utilization;
    out["cost_per_useful_gpu_hour"] = *e.cost_per_useful_gpu_hour;
  }
  return out;
}

} // namespace cb
