// Declared axes: the value lists users type, the defaults per backend and profile, the expansion
// into instances, and every way an --axis or a family flag is refused before a run starts.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "runtime/axis_values.hpp"
#include "runtime/case.hpp"
#include "runtime/run_options.hpp"

using namespace cb;

namespace {

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

RunConfig parse(const std::vector<std::string>& args) {
  ArgParser p = run_argument_parser();
  p.parse(args);
  return run_config_from(p);
}

std::string run_refusal(const std::vector<std::string>& args) {
  return refusal([&] { parse(args); });
}

std::vector<nlohmann::json> instances_of(const std::string& name, const RunConfig& c) {
  for (const auto& kase : CaseRegistry::instance().create_all()) {
    if (kase->name() == name)
      return kase->instances(c);
  }
  ADD_FAILURE() << "no case " << name;
  return {};
}

const Axis kSizes = Axis::sizes("bytes", 8, 1ull << 30).defaults("8:64M:2", "8:2M:8");
const Axis kDepth = Axis::integers("queue_depth", 1, 1024).defaults("1");
const Axis kWords = Axis::words("dtype", {"float", "double"}).defaults("float").on_gpu("double");

} // namespace

TEST(AxisValues, ListsRangesAndWords) {
  EXPECT_EQ(parse_axis_values(kSizes, "8,1K,1M", "--axis"),
            (std::vector<nlohmann::json>{8, 1024, 1 << 20}));
  EXPECT_EQ(parse_axis_values(kSizes, "1K:8K", "--axis"),
            (std::vector<nlohmann::json>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(parse_axis_values(kSizes, "8:100:3", "--axis"), (std::vector<nlohmann::json>{8, 24, 72}));
  EXPECT_EQ(parse_axis_values(kSizes, "1K:1K", "--axis"), (std::vector<nlohmann::json>{1024}));
  EXPECT_EQ(parse_axis_values(kSizes, "64,8:16", "--axis"), (std::vector<nlohmann::json>{64, 8, 16}));
  EXPECT_EQ(parse_axis_values(kDepth, "1:8:2", "--axis"), (std::vector<nlohmann::json>{1, 2, 4, 8}));
  EXPECT_EQ(parse_axis_values(kWords, "double,float", "--axis"),
            (std::vector<nlohmann::json>{"double", "float"}));
  EXPECT_EQ(axis_values_text(kSizes, parse_axis_values(kSizes, "8:32K:1024", "--x")), "8,8K");
}

TEST(AxisValues, BadValuesNameTheFlagAndTheAxis) {
  const std::vector<std::pair<std::string, const Axis*>> bad = {
      {"quad", &kWords},      {"0", &kSizes},        {"4", &kSizes},       {"2G", &kSizes},
      {"lots", &kSizes},      {"1M:1K", &kSizes},    {"8:1M:1", &kSizes},  {"8:1M:x", &kSizes},
      {"8:1G:1.0001", &kSizes}, {"0", &kDepth},      {"-1", &kDepth},      {"1.5", &kDepth},
      {"2000", &kDepth},      {"", &kDepth},         {"1,,2", &kDepth},
  };
  for (const auto& [text, axis] : bad) {
    const std::string message = refusal([&] { parse_axis_values(*axis, text, "--axis"); });
    EXPECT_EQ(message.rfind("--axis " + axis->name, 0), 0u) << text << ": '" << message << "'";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(AxisValues, DefaultsByBackendKindAndProfile) {
  EXPECT_EQ(kSizes.default_text(false, false), "8:64M:2");
  EXPECT_EQ(kSizes.default_text(true, true), "8:2M:8");
  EXPECT_EQ(kWords.default_text(false, false), "float");
  EXPECT_EQ(kWords.default_text(true, false), "double");
  EXPECT_EQ(kWords.default_summary(), "host float; GPU double");
  EXPECT_EQ(kSizes.default_summary(), "8:64M:2 (--quick 8:2M:8)");
  EXPECT_EQ(kDepth.type_summary(), "integer 1..1024");
}

TEST(AxisValues, ProductPutsTheFirstAxisOutermost) {
  RunConfig c;
  c.backend_kind = BackendKind::host;
  c.axis_settings = {{"--axis", "", "bytes", "8,16", ""}};
  const auto out = axis_product("any", {kWords, kSizes}, c);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (nlohmann::json{{"dtype", "float"}, {"bytes", 8}}));
  EXPECT_EQ(out[1], (nlohmann::json{{"dtype", "float"}, {"bytes", 16}}));
  c.backend_kind = BackendKind::cuda;
  EXPECT_EQ(axis_product("any", {kWords}, c).front().at("dtype"), "double");
}

TEST(AxisFlag, ParsesNamesScopesAndValues) {
  const AxisSetting s = parse_axis_flag("gemm.size=1024,2048");
  EXPECT_EQ(s.scope, "gemm");
  EXPECT_EQ(s.axis, "size");
  EXPECT_EQ(s.text, "1024,2048");
  EXPECT_EQ(parse_axis_flag("dtype=float").scope, "");
  for (const char* bad : {"dtype", "=float", "dtype=", ".size=1", "gemm.=1"})
    EXPECT_EQ(refusal([&] { parse_axis_flag(bad); }).rfind("--axis", 0), 0u) << bad;
}

TEST(AxisFlag, OverridesEveryCaseThatHasTheAxisOrOnlyTheNamedOne) {
  const RunConfig c =
      parse({"--backend", "host", "--axis", "dtype=double", "--axis", "all_reduce.bytes=1K,4K"});
  for (const auto& p : instances_of("all_reduce", c))
    EXPECT_EQ(p.at("dtype"), "double");
  EXPECT_EQ(instances_of("all_reduce", c).size(), 2u);
  EXPECT_EQ(instances_of("broadcast", c).size(), 24u); // its bytes axis keeps the default
  for (const auto& p : instances_of("gemm", c))
    EXPECT_EQ(p.at("dtype"), "double");
  // The family flags are spellings of the same axes.
  const RunConfig g = parse({"--backend", "host", "--gemm-sizes", "64", "--block-sizes", "4K",
                             "--queue-depth", "4"});
  EXPECT_EQ(instances_of("gemm", g).size(), 2u); // float and double at 64
  EXPECT_EQ(instances_of("gemm", g).front().at("m"), 64);
  EXPECT_EQ(instances_of("seq_read", g).front().at("block_bytes"), 4096);
  EXPECT_EQ(instances_of("rand_read", g).front().at("queue_depth"), 4);
}

TEST(AxisFlag, RefusalsBeforeAnythingRuns) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--axis", "colour=red"}, "--axis colour: no selected case has this axis"},
      {{"--suite", "storage", "--axis", "dtype=float"}, "--axis dtype: no selected case"},
      {{"--axis", "gemm.bytes=1K"},
       "--axis bytes: case 'gemm' has no such axis (axes: dtype, size)"},
      {{"--axis", "frob.dtype=float"}, "--axis frob.dtype: no selected case is named 'frob'"},
      {{"--axis", "dtype=quad"}, "--axis dtype: unknown value 'quad'"},
      {{"--axis", "op=avg"}, "--axis op: unknown value 'avg'"},
      {{"--axis", "size=0"}, "--axis size: 0 is outside 1..65536"},
      {{"--axis", "queue_depth=1:2000"}, "--axis queue_depth"},
      {{"--axis", "dtype=float", "--axis", "dtype=double"},
       "--axis dtype: the axis is already set by --axis"},
      {{"--dtypes", "float", "--axis", "dtype=double"},
       "--axis dtype: the axis is already set by --dtypes"},
      {{"--min-bytes", "1K", "--axis", "bytes=8"},
       "--axis bytes: the axis is already set by --min-bytes"},
      {{"--gemm-sizes", "0"}, "--gemm-sizes size"},
      {{"--gemm-sizes", "70000"}, "--gemm-sizes size"},
      {{"--array-bytes", "4"}, "--array-bytes bytes"},
      {{"--block-sizes", "0"}, "--block-sizes block_bytes"},
      {{"--queue-depth", "0"}, "--queue-depth queue_depth"},
      {{"--axis", "bytes=1:1T:1.0001"}, "--axis bytes"},
  };
  for (const auto& [args, expected] : cases) {
    const std::string message = run_refusal(args);
    EXPECT_NE(message.find(expected), std::string::npos) << args.back() << ": '" << message << "'";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(AxisFlag, TooManyCombinationsAreRefused) {
  // 4,000 block sizes x 100 queue depths: each list is allowed, their product is not.
  const std::string message =
      run_refusal({"--cases", "seq_read", "--buffered", "--axis", "block_bytes=1:4000:1.0001",
                   "--axis", "queue_depth=1:100:1.0001"});
  EXPECT_NE(message.find("--axis queue_depth: seq_read would make more than 100000 instances"),
            std::string::npos)
      << message;
  EXPECT_NE(run_refusal({"--axis", "bytes=8:1T:1.001"}).find("makes more than 4096 values"),
            std::string::npos);
}

TEST(AxisFlag, GpuGemmShapeSweepOnlyWhenNeitherAxisIsSet) {
  EXPECT_EQ(instances_of("gemm", parse({"--backend", "cuda"})).size(), 9u); // 4 at 8192, 5 shapes
  EXPECT_EQ(instances_of("gemm", parse({"--backend", "cuda", "--quick"})).size(), 4u);
  EXPECT_EQ(instances_of("gemm", parse({"--backend", "cuda", "--gemm-sizes", "1024"})).size(), 4u);
  EXPECT_EQ(instances_of("gemm", parse({"--backend", "cuda", "--axis", "dtype=bf16"})).size(), 1u);
}

TEST(AxisFlag, TrainingStepSweepsBucketsAndOverlap) {
  const auto one = instances_of("data_parallel_step", parse({"--backend", "host"}));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one.front().at("bucket_bytes"), 25u << 20);
  EXPECT_EQ(one.front().at("overlap"), "on");
  const auto four = instances_of(
      "data_parallel_step",
      parse({"--backend", "host", "--axis", "bucket_bytes=4M,25M", "--overlap", "on,off"}));
  ASSERT_EQ(four.size(), 4u);
  EXPECT_EQ(four[1].at("overlap"), "off");
  EXPECT_EQ(four[2].at("bucket_bytes"), 25u << 20);
  EXPECT_EQ(four[3].at("model_params"), one.front().at("model_params"));
  EXPECT_NE(run_refusal({"--overlap", "maybe"}).find("--overlap overlap"), std::string::npos);
}

TEST(AxisHelp, FlagHelpComesFromTheDeclarations) {
  const std::string help = run_argument_parser().help();
  EXPECT_NE(help.find("--gemm-sizes"), std::string::npos);
  EXPECT_NE(help.find("default host 1024,2048,4096 (--quick 512,1024); GPU 8192"), std::string::npos)
      << help;
  EXPECT_NE(help.find("largest message (default 64M; --quick 2M)"), std::string::npos) << help;
  EXPECT_NE(help.find("--block-sizes"), std::string::npos);
  EXPECT_NE(help.find("--axis"), std::string::npos);
  EXPECT_NE(help.find("--list"), std::string::npos);
}
