// A family's scalar options: the declaration's parsing of each kind, its bounds, its defaults per
// backend and profile, the help line generated from it; every registered option in `run --help`
// under its family, and what a case reads equal to what the help says (the drift test).
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "../cli_runner.hpp"
#include "collectives/collective_options.hpp"
#include "core/error.hpp"
#include "links/links_options.hpp"
#include "runtime/family.hpp"
#include "runtime/family_option.hpp"
#include "runtime/run_options.hpp"
#include "storage/storage_dir.hpp"
#include "storage/storage_options.hpp"
#include "workload/transformer_shape.hpp"
#include "workload/workload_options.hpp"
#include "workload/workload_shape.hpp"

using namespace cb;

namespace {

std::string option_refusal(const OptionDeclaration& d, const std::string& text) {
  try {
    d.parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

RunConfig config_on(BackendKind kind, bool quick = false) {
  RunConfig c;
  c.backend_kind = kind;
  c.quick = quick;
  return c;
}

const FamilyOption<std::uint64_t> kSampleBytesOption{
    OptionDeclaration::size("sample-bytes")
        .described("bytes per sample")
        .within(4096, 1ull << 30)
        .defaults(std::uint64_t{256} << 20, std::uint64_t{64} << 20)
        .on_gpu(std::uint64_t{1} << 30)};

} // namespace

TEST(FamilyOption, ParsesEachKind) {
  EXPECT_EQ(kSampleBytesOption.parse("64M"), 64u << 20);
  EXPECT_EQ(kInputBytesPerStep.parse("0"), 0u); // a size whose bounds start at 0 takes 0
  EXPECT_EQ(kInputBytesPerStep.parse("1K"), 1024u);
  EXPECT_DOUBLE_EQ(kModelParams.parse("16M").get<double>(), 16e6);
  EXPECT_DOUBLE_EQ(kModelParams.parse("7B").get<double>(), 7e9);
  EXPECT_EQ(kPrefetch.parse("4"), 4);
  EXPECT_EQ(kCudaGraph.parse(""), true);
  EXPECT_EQ(kPairs.parse("sequential"), "sequential");
  EXPECT_EQ(kTopology.parse("/etc/slurm/topology.conf"), "/etc/slurm/topology.conf");
}

TEST(FamilyOption, RefusesOneLineNamingTheFlag) {
  EXPECT_EQ(option_refusal(kPrefetch, "0"), "--prefetch: must be 1..64, got 0");
  EXPECT_EQ(option_refusal(kPrefetch, "65"), "--prefetch: must be 1..64, got 65");
  EXPECT_EQ(option_refusal(kModelParams, "0"), "--model-params: must be at least 1, got 0");
  EXPECT_EQ(option_refusal(kTokensPerGpu, "2e9"),
            "--tokens-per-gpu: must be 1..1000000000, got 2e9");
  EXPECT_EQ(option_refusal(kSampleBytesOption, "1K"), "--sample-bytes: must be 4K..1G, got 1K");
  EXPECT_EQ(option_refusal(kPlacement, "sideways"),
            "--placement: expected both, out or in, got 'sideways'");
  EXPECT_EQ(option_refusal(kPairs, "parallel"),
            "--pairs: expected screen, rounds or sequential, got 'parallel'");
  EXPECT_EQ(option_refusal(kStorageDir, ""), "--storage-dir: expected a name, got an empty one");
  for (const auto& [decl, text] :
       std::vector<std::pair<const OptionDeclaration*, std::string>>{{&kFileBytes, "0"},
                                                                     {&kFileBytes, "lots"},
                                                                     {&kPrefetch, "two"},
                                                                     {&kPrefetch, "1.5"},
                                                                     {&kModelParams, "many"},
                                                                     {&kCheckpointBytes, "-1"}}) {
    const std::string message = option_refusal(*decl, text);
    EXPECT_EQ(message.rfind("--" + decl->name() + ":", 0), 0u) << text << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(FamilyOption, DefaultsPerBackendAndProfile) {
  EXPECT_EQ(kSampleBytesOption.default_value(BackendKind::host, false), 256u << 20);
  EXPECT_EQ(kSampleBytesOption.default_value(BackendKind::host, true), 64u << 20);
  EXPECT_EQ(kSampleBytesOption.default_value(BackendKind::cuda, false), 1u << 30);
  // A GPU default without its own --quick value holds under --quick too.
  EXPECT_EQ(kSampleBytesOption.default_value(BackendKind::cuda, true), 1u << 30);
  EXPECT_TRUE(kPairs.default_value(BackendKind::host, false).is_null()); // computed
  EXPECT_FALSE(kPairs.has_fixed_default());
}

TEST(FamilyOption, ValueIsGivenElseTheDefaultInUse) {
  EXPECT_EQ(kSampleBytesOption.value(config_on(BackendKind::host)), 256u << 20);
  EXPECT_EQ(kSampleBytesOption.value(config_on(BackendKind::host, true)), 64u << 20);
  EXPECT_EQ(kSampleBytesOption.value(config_on(BackendKind::cuda, true)), 1u << 30);
  RunConfig given = config_on(BackendKind::cuda);
  kSampleBytesOption.set(given, 8192);
  EXPECT_EQ(kSampleBytesOption.value(given), 8192u);
  EXPECT_EQ(kSampleBytesOption.given(given).value_or(0), 8192u);
  EXPECT_FALSE(kSampleBytesOption.given(config_on(BackendKind::cuda)).has_value());
  // The backend is asked only where the default depends on it: "auto" unresolved is an error
  // there, and no question for an option with one default.
  RunConfig unresolved;
  EXPECT_THROW(kSampleBytesOption.value(unresolved), std::logic_error);
  EXPECT_EQ(kSampleBytesOption.value(unresolved, BackendKind::host), 256u << 20);
  EXPECT_EQ(kPrefetch.value(unresolved), 2);
  EXPECT_FALSE(kCudaGraph.value(unresolved));
  // A computed default is the case's to work out.
  EXPECT_THROW(kPairs.value(unresolved), std::logic_error);
}

TEST(FamilyOption, TheTypeMustReadTheKind) {
  EXPECT_THROW(FamilyOption<bool>(OptionDeclaration::size("x")), std::logic_error);
  EXPECT_THROW(FamilyOption<std::uint64_t>(OptionDeclaration::word("x", "W", {"a"})),
               std::logic_error);
  EXPECT_NO_THROW(FamilyOption<std::string>(OptionDeclaration::path("x", "FILE")));
}

TEST(FamilyOption, HelpLineIsGenerated) {
  EXPECT_EQ(kSampleBytesOption.help_line(),
            "bytes per sample (default: 256 MiB; --quick: 64 MiB; cuda: 1 "
            "GiB)");
  EXPECT_EQ(kFileBytes.help_line(), "file size per rank (default: 256 MiB; --quick: 64 MiB; "
                                    "cuda: 1 GiB; cuda --quick: 256 MiB)");
  EXPECT_EQ(kPrefetch.help_line(), "batches the loader reads ahead (default: 2)");
  EXPECT_EQ(kModelParams.help_line(), "parameters of the model trained, e.g. 16M (default: "
                                      "16777216; cuda: 1610612736)");
  EXPECT_EQ(kBuffered.help_line(), "read through the page cache instead of O_DIRECT");
  EXPECT_NE(kTopology.help_line().find("(default: none: ceil(sqrt(nodes)) groups)"),
            std::string::npos);
}

namespace {

// Every family's options, with the family's suite.
std::vector<std::pair<std::string, const OptionDeclaration*>> registered_family_options() {
  std::vector<std::pair<std::string, const OptionDeclaration*>> out;
  for (const auto& family : FamilyRegistry::instance().all()) {
    for (const OptionDeclaration* o : family->options())
      out.emplace_back(family->suite(), o);
  }
  return out;
}

// The help's line of --NAME (the whole line, or "").
std::string help_line_of_flag(const std::string& help, const std::string& name) {
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  --" + name + " ", 0) == 0 || line == "  --" + name)
      return line;
  }
  return "";
}

// What a reader of the help takes as the default on `kind` under `quick`: the "(default: ...;
// --quick: ...; cuda: ...; cuda --quick: ...)" parts, each falling back as written.
std::string help_default_read_from(const std::string& line, BackendKind kind, bool quick) {
  const auto open = line.rfind("(default: ");
  if (open == std::string::npos)
    return "";
  std::map<std::string, std::string> parts;
  std::string body = line.substr(open + 1, line.size() - open - 2);
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find("; ", start);
    if (end == std::string::npos)
      end = body.size();
    const std::string part = body.substr(start, end - start);
    const auto colon = part.find(": ");
    parts[part.substr(0, colon)] = part.substr(colon + 2);
    start = end + 2;
  }
  const auto pick = [&](const std::string& key, const std::string& fallback) {
    return parts.count(key) ? parts[key] : fallback;
  };
  const std::string host = pick("default", "");
  const std::string host_quick = pick("--quick", host);
  if (kind == BackendKind::host)
    return quick ? host_quick : host;
  if (!parts.count("cuda"))
    return quick ? host_quick : host;
  return quick ? pick("cuda --quick", parts["cuda"]) : parts["cuda"];
}

} // namespace

TEST(FamilyOptionHelp, EveryRegisteredOptionIsInRunHelpUnderItsFamily) {
  const std::string help = run_argument_parser().help();
  const auto options = registered_family_options();
  ASSERT_GE(options.size(), 13u);
  for (const auto& [suite, o] : options) {
    const std::string line = help_line_of_flag(help, o->name());
    ASSERT_FALSE(line.empty()) << "--" << o->name() << " missing from run --help";
    EXPECT_NE(line.find(o->help_line()), std::string::npos) << line;
    // Once, and under its family's heading: the nearest heading above it.
    const auto at = help.find("\n" + line + "\n");
    EXPECT_EQ(help.find("\n  --" + o->name() + " ", at + 1), std::string::npos) << o->name();
    const auto heading_end = help.rfind(" options:\n", at);
    ASSERT_NE(heading_end, std::string::npos) << o->name();
    const auto heading_start = help.rfind('\n', heading_end) + 1;
    EXPECT_EQ(help.substr(heading_start, heading_end - heading_start), suite)
        << "--" << o->name() << " is not under " << suite;
  }
}

// The drift test: with nothing set, what a case reads, printed, is what the help says, on each
// backend and profile.
TEST(FamilyOptionHelp, WhatACaseReadsIsWhatTheHelpSays) {
  const std::string help = run_argument_parser().help();
  int checked = 0;
  for (const auto& [suite, o] : registered_family_options()) {
    if (!o->has_fixed_default())
      continue;
    const std::string line = help_line_of_flag(help, o->name());
    for (BackendKind kind : {BackendKind::host, BackendKind::cuda}) {
      for (bool quick : {false, true}) {
        const RunConfig config = config_on(kind, quick);
        EXPECT_EQ(o->format(o->value_in_use(config)), help_default_read_from(line, kind, quick))
            << "--" << o->name() << " on " << backend_kind_name(kind) << (quick ? " --quick" : "");
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 4 * 5);
  // And the cases' own readers agree with their declarations.
  EXPECT_EQ(storage_file_bytes(config_on(BackendKind::host, true)), 64u << 20);
  EXPECT_EQ(storage_file_bytes(config_on(BackendKind::cuda)), 1u << 30);
  EXPECT_EQ(workload_shape(config_on(BackendKind::host)).tokens, 256);
  EXPECT_DOUBLE_EQ(workload_shape(config_on(BackendKind::host)).params(), kHostDefaultParams);
  EXPECT_EQ(transformer_shape(config_on(BackendKind::cuda)).tokens, 8192);
  EXPECT_DOUBLE_EQ(transformer_shape(config_on(BackendKind::cuda)).params(), kGpuDefaultParams);
  EXPECT_EQ(placements(config_on(BackendKind::host)), (std::vector<bool>{false, true}));
}

TEST(FamilyOptionHelp, RunParsesThemGenerically) {
  ArgParser p = run_argument_parser();
  ASSERT_TRUE(p.parse({"--file-bytes", "16M", "--buffered", "--pairs", "rounds", "--prefetch", "3",
                       "--model-params", "2M", "--placement", "in"}));
  const RunConfig c = run_config_from(p);
  EXPECT_EQ(kFileBytes.value(c), 16u << 20);
  EXPECT_TRUE(kBuffered.value(c));
  EXPECT_FALSE(kCleanup.value(c));
  EXPECT_EQ(kPairs.given(c).value_or(""), "rounds");
  EXPECT_EQ(kPrefetch.value(c), 3);
  EXPECT_DOUBLE_EQ(kModelParams.value(c), 2e6);
  EXPECT_EQ(placements(c), (std::vector<bool>{true}));
}

// The real binary: the help's sections and a bad value's one line and exit 2.
TEST(FamilyOptionHelp, TheBinaryPrintsAndRefuses) {
  const auto help = cb::testing::run_clusterbench("run --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(cb::testing::contains(help.out, "\nstorage options:\n")) << help.out;
  EXPECT_TRUE(cb::testing::contains(
      help.out, "(default: 256 MiB; --quick: 64 MiB; cuda: 1 GiB; cuda --quick: "
                "256 MiB)"))
      << help.out;
  const auto bad = cb::testing::run_clusterbench("run --backend host --prefetch 0");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(
      cb::testing::contains(bad.err, "clusterbench run: --prefetch: must be 1..64, got 0\n"))
      << bad.err;
  EXPECT_EQ(cb::testing::line_count(bad.err), 1) << bad.err;
  const auto plan = cb::testing::run_clusterbench("plan --backend host --placement sideways");
  EXPECT_EQ(plan.exit_code, 2);
  EXPECT_TRUE(
      cb::testing::contains(plan.err, "--placement: expected both, out or in, got 'sideways'"))
      << plan.err;
}
