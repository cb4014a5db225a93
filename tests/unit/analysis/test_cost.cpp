#include <gtest/gtest.h>

#include "analysis/cost.hpp"
#include "core/error.hpp"

using namespace cb;

namespace {

CostInputs inputs(int gpus, double efficiency) {
  CostInputs in;
  in.gpu_hours = 4000;
  in.price_per_gpu_hour = 2.50;
  in.gpus = gpus;
  in.efficiency = efficiency;
  return in;
}

std::string error_for(const CostInputs& in) {
  try {
    estimate_cost(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

// The worked example: 4,000 GPU-hours at $2.50.
TEST(Cost, EightGpusAtFullEfficiency) {
  const auto e = estimate_cost(inputs(8, 1.0));
  EXPECT_DOUBLE_EQ(e.wall_hours, 500);
  EXPECT_NEAR(e.wall_days, 20.8333, 1e-4);
  EXPECT_DOUBLE_EQ(e.cost, 10000);
  EXPECT_DOUBLE_EQ(e.ideal_cost, 10000);
  EXPECT_DOUBLE_EQ(e.overhead_fraction, 0);
  EXPECT_EQ(format_cost(e),
            "8 GPUs at 100.0 % efficiency: 500.00 h (20.83 days), $10,000.00, 0.0 % over the "
            "ideal $10,000.00");
}

TEST(Cost, SixtyFourGpusAtSeventyPercent) {
  const auto e = estimate_cost(inputs(64, 0.70));
  EXPECT_NEAR(e.wall_hours, 89.29, 0.005);
  EXPECT_NEAR(e.cost, 14285.71, 0.005);
  EXPECT_DOUBLE_EQ(e.ideal_cost, 10000);
  EXPECT_NEAR(e.overhead_fraction, 0.4286, 0.00005);
  EXPECT_EQ(format_cost(e),
            "64 GPUs at 70.0 % efficiency: 89.29 h (3.72 days), $14,285.71, 42.9 % over the "
            "ideal $10,000.00");
  const auto j = cost_to_json(e);
  for (const char* key : {"wall_hours", "wall_days", "cost", "ideal_cost", "overhead_fraction",
                          "efficiency", "gpus"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_FALSE(j.contains("cost_per_useful_gpu_hour"));
  EXPECT_EQ(j["gpus"], 64);
}

TEST(Cost, Utilization) {
  CostInputs in = inputs(64, 0.70);
  in.utilization = 0.5;
  const auto e = estimate_cost(in);
  ASSERT_TRUE(e.cost_per_useful_gpu_hour);
  EXPECT_DOUBLE_EQ(*e.cost_per_useful_gpu_hour, 5.0);
  EXPECT_EQ(cost_to_json(e)["cost_per_useful_gpu_hour"], 5.0);
  EXPECT_NE(format_cost(e).find("each useful GPU-hour costs $5.00"), std::string::npos);
}

TEST(Cost, OneGpuIsSingular) {
  EXPECT_EQ(format_cost(estimate_cost(inputs(1, 1.0))).rfind("1 GPU at", 0), 0u);
}

TEST(Cost, Money) {
  EXPECT_EQ(format_money(0), "$0.00");
  EXPECT_EQ(format_money(999.999), "$1,000.00");
  EXPECT_EQ(format_money(1234567.891), "$1,234,567.89");
  EXPECT_EQ(format_money(-12.5), "-$12.50");
}

TEST(Cost, BadValuesNameTheFlag) {
  CostInputs in = inputs(8, 1.0);
  in.price_per_gpu_hour = 0;
  EXPECT_EQ(error_for(in).rfind("--price", 0), 0u);
  in = inputs(8, 1.0);
  in.gpu_hours = -1;
  EXPECT_EQ(error_for(in).rfind("--gpu-hours", 0), 0u);
  EXPECT_EQ(error_for(inputs(0, 1.0)).rfind("--gpus", 0), 0u);
  EXPECT_EQ(error_for(inputs(8, 0.0)).rfind("--efficiency", 0), 0u);
  EXPECT_EQ(error_for(inputs(8, 1.01)).rfind("--efficiency", 0), 0u);
  EXPECT_EQ(error_for(inputs(8, 1.0)), "");
  in = inputs(8, 1.0);
  in.utilization = 0.0;
  EXPECT_EQ(error_for(in).rfind("--utilization", 0), 0u);
  in.utilization = 2.0;
  EXPECT_EQ(error_for(in).rfind("--utilization", 0), 0u);
  in.utilization = 1.0;
  EXPECT_EQ(error_for(in), "");
}
