// `clusterbench qualify` against spec files with bad input, as a user meets it: exit 2 and one
// line on stderr naming the spec file, the check and the field.
#include <gtest/gtest.h>

#include "../cli_runner.hpp"

using namespace cb::testing;

namespace {

std::string qualify_fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/qualify/" + name;
}

CliResult qualify_with(const std::string& spec, const std::string& extra = "") {
  return run_clusterbench("qualify " + qualify_fixture("h200_clean.json") + " --spec " +
                          qualify_fixture(spec) + extra);
}

} // namespace

TEST(QualifyCli, UnknownMetricIsBadInputNamingFileAndField) {
  for (const char* extra : {"", " --json", " --allow-inconclusive"}) {
    const CliResult r = qualify_with("bad_spec_unknown_metric.json", extra);
    EXPECT_EQ(r.exit_code, 2) << extra << "\n" << r.out << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_TRUE(contains(r.err, qualify_fixture("bad_spec_unknown_metric.json") +
                                    ": checks[1] (hbm-bogus): field 'metric' is 'bogus_metric'"))
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out; // no verdict printed for a spec that cannot be judged
  }
}

TEST(QualifyCli, UnknownSuiteIsBadInputNamingFileAndField) {
  const CliResult r = qualify_with("bad_spec_unknown_suite.json");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, qualify_fixture("bad_spec_unknown_suite.json") +
                                  ": checks[0] (all-reduce-8gpu): field 'suite' is 'collective', "
                                  "allowed collectives|compute|links|storage"))
      << r.err;
}
