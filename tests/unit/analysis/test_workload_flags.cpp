// The training-step flags report and cost --from share: one workload, one default input read.
#include <gtest/gtest.h>

#include "analysis/workload_flags.hpp"
#include "core/error.hpp"

using namespace cb;

namespace {

PredictionConfig read(const std::vector<std::string>& argv, PredictionConfig config = {}) {
  ArgParser args("clusterbench test", "test");
  for (const char* flag :
       {"model-params", "tokens-per-gpu", "grad-bytes", "overlap", "bytes-per-step"}) {
    args.option(flag, "X", "");
  }
  EXPECT_TRUE(args.parse(argv));
  read_workload_flags(args, config);
  return config;
}

std::string error_of(const std::string& text) {
  try {
    parse_bytes_per_step(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(WorkloadFlags, BytesPerStepTakesZeroForNoInput) {
  EXPECT_EQ(parse_bytes_per_step("0"), 0);
  EXPECT_EQ(parse_bytes_per_step("00"), 0);
  EXPECT_EQ(parse_bytes_per_step("0K"), 0);
  EXPECT_EQ(parse_bytes_per_step("64K"), 65536);
  EXPECT_EQ(parse_bytes_per_step("1M"), 1 << 20);
  EXPECT_EQ(error_of("-1"), "--bytes-per-step: expected 0 (no input reads) or a size such as 64K, "
                            "1M or 2G, got '-1'");
  EXPECT_NE(error_of("0Q").find("got '0Q'"), std::string::npos);
  EXPECT_NE(error_of("").find("--bytes-per-step"), std::string::npos);
  EXPECT_NE(error_of("99999999999T").find("too large"), std::string::npos);
}

TEST(WorkloadFlags, InputFollowsTheTokensAndIsOptionalByDefault) {
  PredictionConfig base;
  base.model_params = 7e9;
  base.tokens_per_gpu = 16384;
  const auto defaults = read({}, base);
  EXPECT_DOUBLE_EQ(defaults.bytes_per_step, kInputBytesPerToken * 16384);
  EXPECT_FALSE(defaults.input_required);

  const auto tokens = read({"--tokens-per-gpu", "2K", "--model-params", "1B"}, base);
  EXPECT_DOUBLE_EQ(tokens.tokens_per_gpu, 2000);
  EXPECT_DOUBLE_EQ(tokens.model_params, 1e9);
  EXPECT_DOUBLE_EQ(tokens.bytes_per_step, 8000);
  EXPECT_FALSE(tokens.input_required);
}

TEST(WorkloadFlags, GivenInputIsRequiredUnlessZero) {
  const auto given = read({"--tokens-per-gpu", "1000", "--bytes-per-step", "1M"});
  EXPECT_DOUBLE_EQ(given.bytes_per_step, 1 << 20);
  EXPECT_TRUE(given.input_required);
  const auto none = read({"--tokens-per-gpu", "1000", "--bytes-per-step", "0"});
  EXPECT_DOUBLE_EQ(none.bytes_per_step, 0);
  EXPECT_FALSE(none.input_required);
}

TEST(WorkloadFlags, OtherFlags) {
  const auto c = read({"--grad-bytes", "1G", "--overlap", "0.25"});
  EXPECT_DOUBLE_EQ(*c.grad_bytes, 1024.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(c.overlap, 0.25);
}

TEST(WorkloadFlags, HelpSaysTheDefaultAndZero) {
  const std::string help = bytes_per_step_help("with --from: ");
  EXPECT_EQ(help.rfind("with --from: ", 0), 0u);
  EXPECT_NE(help.find("default 4 per token"), std::string::npos);
  EXPECT_NE(help.find("0 = none"), std::string::npos);
}
