#pragma once
// What lost scaling efficiency costs. A job that needs H GPU-hours of perfectly scaled work runs
// on N GPUs at efficiency E for H / (N E) hours and is billed N times that at P per GPU-hour:
//   wall_hours = H / (N E),  cost = N wall_hours P = H P / E,  ideal_cost = H P,
//   overhead_fraction = cost / ideal_cost - 1 = 1/E - 1.
// With a utilization U (the share of billed GPU time doing useful work), each useful GPU-hour
// costs P / U.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace cb {

struct CostInputs {
  double gpu_hours = 0;              // --gpu-hours: the work at perfect scaling
  double price_per_gpu_hour = 0;     // --price
  int gpus = 0;                      // --gpus
  double efficiency = 1;             // --efficiency, or predicted from results
  std::optional<double> utilization; // --utilization
};

struct CostEstimate {
  CostInputs inputs;
  double wall_hours = 0;
  double wall_days = 0;
  double cost = 0;
  double ideal_cost = 0;
  double overhead_fraction = 0;
  std::optional<double> cost_per_useful_gpu_hour;
};

// Throws InputError naming the flag: --gpu-hours and --price > 0, --gpus >= 1, --efficiency and
// --utilization in (0, 1].
CostEstimate estimate_cost(const CostInputs& inputs);

// "$14,285.71"
std::string format_money(double amount);
// "64 GPUs at 70.0 % efficiency: 89.29 h (3.72 days), $14,285.71, 42.9 % over the ideal
// $10,000.00", plus a line on utilization when given.
std::string format_cost(const CostEstimate& estimate);
// wall_hours, wall_days, cost, ideal_cost, overhead_fraction, efficiency, gpus, gpu_hours,
// price_per_gpu_hour, and utilization with cost_per_useful_gpu_hour when given.
nlohmann::json cost_to_json(const CostEstimate& estimate);

} // namespace cb
