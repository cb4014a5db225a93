#include <gtest/gtest.h>

#include "core/args.hpp"
#include "core/error.hpp"

using namespace cb;

namespace {
ArgParser make() {
  ArgParser p("clusterbench demo", "clusterbench demo [options] FILE");
  p.option("out", "FILE", "where to write").flag("json", "machine-readable output");
  p.positional("FILE", "input");
  return p;
}
} // namespace

TEST(ArgParser, ParsesOptionsFlagsAndPositionals) {
  auto p = make();
  ASSERT_TRUE(p.parse({"in.json", "--out", "x.json", "--json"}));
  EXPECT_EQ(p.positional_value("FILE"), "in.json");
  EXPECT_EQ(p.get_or("out", ""), "x.json");
  EXPECT_TRUE(p.has("json"));
}

TEST(ArgParser, AcceptsEqualsForm) {
  auto p = make();
  ASSERT_TRUE(p.parse({"--out=y.json", "in.json"}));
  EXPECT_EQ(*p.get("out"), "y.json");
}

// A flag where a value belongs is a forgotten value: `--out --help` once wrote a file named
// --help. The = form still takes any value.
TEST(ArgParser, AFlagIsNoValue) {
  for (const char* next : {"--help", "--json", "--bogus"}) {
    auto p = make();
    try {
      p.parse({"in.json", "--out", next});
      FAIL() << next;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("--out: missing value FILE (got the flag " + std::string(next)),
                std::string::npos)
          << what;
    }
  }
  auto p = make();
  ASSERT_TRUE(p.parse({"in.json", "--out=--help"}));
  EXPECT_EQ(*p.get("out"), "--help");
  auto dash = make();
  ASSERT_TRUE(dash.parse({"in.json", "--out", "-"})); // standard output, where a command allows it
  EXPECT_EQ(*dash.get("out"), "-");
}

TEST(ArgParser, HelpReturnsFalseAndListsOptions) {
  auto p = make();
  EXPECT_FALSE(p.parse({"--help"}));
  EXPECT_NE(p.help().find("--out FILE"), std::string::npos);
}

TEST(ArgParser, RejectsUnknownFlagMissingValueAndMissingPositional) {
  {
    auto p = make();
    try {
      p.parse({"--bogus", "in.json"});
      FAIL();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--bogus"), std::string::npos);
    }
  }
  {
    auto p = make();
    EXPECT_THROW(p.parse({"in.json", "--out"}), InputError);
  }
  {
    auto p = make();
    EXPECT_THROW(p.parse({}), InputError);
  }
  {
    auto p = make();
    EXPECT_THROW(p.parse({"a", "b"}), InputError);
  }
  {
    auto p = make();
    EXPECT_THROW(p.parse({"--json=1", "a"}), InputError);
  }
}

TEST(ArgParser, KeepsEverythingAfterDoubleDash) {
  auto p = make();
  ASSERT_TRUE(p.parse({"in.json", "--", "--quick", "--gpus", "2"}));
  EXPECT_EQ(p.passthrough(), (std::vector<std::string>{"--quick", "--gpus", "2"}));
}

// A heading lists the options after it under a title; it is no flag anyone can give.
TEST(ArgParser, HeadingsGroupTheOptionsAfterThem) {
  ArgParser p("t", "t [options]");
  p.option("out", "FILE", "where").heading("storage options").flag("buffered", "page cache");
  const std::string help = p.help();
  EXPECT_NE(help.find("  --out FILE"), std::string::npos) << help;
  EXPECT_LT(help.find("\nstorage options:\n"), help.find("  --buffered")) << help;
  EXPECT_GT(help.find("\nstorage options:\n"), help.find("  --out FILE")) << help;
  EXPECT_THROW(p.parse({"--=x"}), InputError); // a heading has no name to match
  EXPECT_THROW(p.parse({"--storage options"}), InputError);
}
