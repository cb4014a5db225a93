#include <gtest/gtest.h>

#include "collectives/collective_options.hpp"
#include "core/error.hpp"
#include "links/links_options.hpp"
#include "runtime/case.hpp"
#include "runtime/run_options.hpp"

#include <algorithm>

using namespace cb;

namespace {
RunConfig parse(const std::vector<std::string>& args) {
  ArgParser p = run_argument_parser();
  p.parse(args);
  return run_config_from(p);
}

std::string rejection(const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
} // namespace

// The message sizes of all_reduce in this configuration (its bytes axis).
std::vector<std::uint64_t> sizes_of(const RunConfig& c) {
  std::vector<std::uint64_t> out;
  for (const auto& kase : CaseRegistry::instance().create_all()) {
    if (kase->name() != "all_reduce")
      continue;
    for (const auto& p : kase->instances(c)) {
      const auto bytes = p.at("bytes").get<std::uint64_t>();
      if (std::find(out.begin(), out.end(), bytes) == out.end())
        out.push_back(bytes);
    }
  }
  return out;
}

TEST(RunOptions, DefaultsAndQuickProfile) {
  RunConfig c = parse({});
  EXPECT_TRUE(c.suites.empty());
  EXPECT_EQ(sizes_of(c).front(), 8u);
  EXPECT_EQ(sizes_of(c).back(), 64u << 20);
  EXPECT_EQ(sizes_of(c).size(), 24u);
  EXPECT_EQ(placements(c), (std::vector<bool>{false, true}));
  RunConfig q = parse({"--quick"});
  EXPECT_TRUE(q.quick);
  EXPECT_EQ(sizes_of(q).back(), 2u << 20);
  EXPECT_EQ(sizes_of(q).size(), 7u); // 8 B to 2 MiB by 8
  EXPECT_LT(q.measure.max_time_s, c.measure.max_time_s);
}

// --backend as given stays as given; a named backend's kind is known at once, auto's only once a
// launcher resolves it on the machine that runs (RunConfig::backend_in_use says it was not).
TEST(RunOptions, TheBackendAskedAndItsKindAreSeparateFields) {
  const RunConfig asked_auto = parse({});
  EXPECT_EQ(asked_auto.backend, "auto");
  EXPECT_FALSE(asked_auto.backend_kind.has_value());
  EXPECT_THROW(asked_auto.backend_in_use(), std::logic_error);
  const RunConfig host = parse({"--backend", "host"});
  EXPECT_EQ(host.backend, "host");
  EXPECT_EQ(host.backend_in_use(), BackendKind::host);
  const RunConfig cuda = parse({"--backend", "cuda"});
  EXPECT_EQ(cuda.backend_in_use(), BackendKind::cuda);
  EXPECT_STREQ(backend_kind_name(BackendKind::cuda), "cuda");
  EXPECT_EQ(backend_kind_named("host"), BackendKind::host);
  EXPECT_FALSE(backend_kind_named("auto").has_value());
  EXPECT_FALSE(backend_kind_named("rocm").has_value());
}

TEST(RunOptions, SizesAndSuitesAndCases) {
  RunConfig c = parse({"--suite", "collectives", "--cases", "all_reduce,broadcast", "--min-bytes",
                       "1K", "--max-bytes", "1M", "--step-factor", "4", "--dtypes",
                       "float,double,int32", "--ops", "sum,min,max", "--placement", "out"});
  EXPECT_EQ(c.suites, (std::vector<std::string>{"collectives"}));
  EXPECT_TRUE(c.wants_case("collectives", "broadcast"));
  EXPECT_FALSE(c.wants_case("collectives", "alltoall"));
  EXPECT_EQ(sizes_of(c), (std::vector<std::uint64_t>{1024, 4096, 16384, 65536, 262144, 1048576}));
  EXPECT_EQ(placements(c), (std::vector<bool>{false}));
}

TEST(RunOptions, MessageSizesIncludeMinAndStopAtMax) {
  EXPECT_EQ(sizes_of(parse({"--min-bytes", "8", "--max-bytes", "100", "--step-factor", "3"})),
            (std::vector<std::uint64_t>{8, 24, 72}));
  // --min-bytes alone above the default largest size moves the largest up to it.
  EXPECT_EQ(sizes_of(parse({"--min-bytes", "128M"})), (std::vector<std::uint64_t>{128u << 20}));
  // Each flag keeps the other parts of the profile's range.
  EXPECT_EQ(sizes_of(parse({"--quick", "--min-bytes", "64K"})),
            (std::vector<std::uint64_t>{64u << 10, 512u << 10}));
}

TEST(RunOptions, RejectionsNameTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--min-bytes", "0"}, "--min-bytes"},
      {{"--min-bytes", "-5"}, "--min-bytes"},
      {{"--max-bytes", "lots"}, "--max-bytes"},
      {{"--min-bytes", "1M", "--max-bytes", "1K"}, "--min-bytes"},
      {{"--step-factor", "1"}, "--step-factor"},
      {{"--step-factor", "0.5"}, "--step-factor"},
      {{"--suite", "graphics"}, "--suite"},
      {{"--suite", "collectives", "--cases", "all_reduce,teleport"}, "--cases"},
      {{"--dtypes", "float,quad"}, "--dtypes"},
      {{"--ops", "avg"}, "--ops"},
      {{"--gpus", "4,2"}, "--gpus"},
      {{"--gpus", "0"}, "--gpus"},
      {{"--np", "0"}, "--np"},
      {{"--placement", "sideways"}, "--placement"},
      {{"--timeout", "0"}, "--timeout"},
      {{"--bogus"}, "--bogus"},
  };
  for (const auto& [args, flag] : cases) {
    const std::string message = rejection(args);
    EXPECT_NE(message.find(flag), std::string::npos) << args[0] << ": '" << message << "'";
  }
}

TEST(RunOptions, OutputPathChecks) {
  EXPECT_THROW(check_output_path("/nonexistent-dir-cb/x.json", false), InputError);
  EXPECT_THROW(check_output_path("/tmp", false), InputError);
  EXPECT_NO_THROW(check_output_path("/tmp/cb-out-check.json", false));
}

// Without --pairs the schedule is chosen by the node count (the screen from 16 nodes).
TEST(RunOptions, PairsAreChosenByNodeCountUnlessAsked) {
  EXPECT_FALSE(kPairs.given(parse({})).has_value());
  EXPECT_EQ(kPairs.given(parse({"--pairs", "sequential"})).value_or(""), "sequential");
  EXPECT_EQ(kPairs.given(parse({"--pairs", "rounds"})).value_or(""), "rounds");
  EXPECT_EQ(kPairs.given(parse({"--pairs", "screen"})).value_or(""), "screen");
  EXPECT_EQ(rejection({"--pairs", "parallel"}),
            "--pairs: expected screen, rounds or sequential, got 'parallel'");
  EXPECT_NE(rejection({"--pairs", ""}).find("--pairs"), std::string::npos);
}
