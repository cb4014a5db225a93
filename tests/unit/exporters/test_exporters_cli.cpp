// --junit and --prometheus through the real binary: written where asked, the command's exit code
// kept, and every path that may not be written refused with one line naming the flag, exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../cli_runner.hpp"

using namespace cb::testing;

namespace {

namespace fs = std::filesystem;

std::string qualify_fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/qualify/" + name;
}

class ExportersCli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cb-exporters-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

void expect_refused(const CliResult& r, const std::string& flag) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, flag)) << r.err;
}

TEST_F(ExportersCli, CheckWritesJUnitAndKeepsItsExitCode) {
  const std::string xml = path("check.xml");
  // Five runs a side, all_reduce 64M on 4 GPUs half as fast again in the slow runs.
  const CliResult r = run_clusterbench("check --baseline " + fixture("runs/base") + " " +
                                       fixture("runs/slow") + " --junit " + xml);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string text = read_file(xml);
  EXPECT_TRUE(contains(text, "failures=\"1\"")) << text;
  EXPECT_TRUE(contains(text, "<failure message=\"slower than the baseline: time ")) << text;
  EXPECT_TRUE(contains(text, "(+50.1 %, p ")) << text;
}

TEST_F(ExportersCli, QualifyWritesBothAndKeepsItsExitCode) {
  const std::string prom = path("q.prom"), xml = path("q.xml");
  const CliResult r = run_clusterbench("qualify " + qualify_fixture("h200_slow_gpu.json") +
                                       " --spec h200-sxm --prometheus " + prom + " --junit " + xml);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string textfile = read_file(prom);
  EXPECT_TRUE(
      contains(textfile, "clusterbench_qualify_verdict{spec=\"h200-sxm\",verdict=\"FAIL\"} 1\n"))
      << textfile.substr(0, 2000);
  EXPECT_TRUE(contains(textfile, "# TYPE clusterbench_gpu_bandwidth_gbs gauge\n"));
  EXPECT_TRUE(contains(read_file(xml), "classname=\"qualify.culprits.gpu\""));
}

TEST_F(ExportersCli, ReportWritesATextfile) {
  const std::string prom = path("r.prom");
  const CliResult r =
      run_clusterbench("report " + std::string(CB_SOURCE_DIR) +
                       "/tests/fixtures/report/host_step_run.json" + " --prometheus " + prom);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string textfile = read_file(prom);
  EXPECT_TRUE(contains(textfile, "# TYPE clusterbench_scaling_efficiency gauge\n"));
  EXPECT_TRUE(contains(textfile, "clusterbench_gpu_bus_bandwidth_gbs{command=\"report\""));
}

TEST_F(ExportersCli, PathsThatMayNotBeWrittenAreRefused) {
  const std::string check = "check --baseline " + fixture("baseline.json") + " " +
                            fixture("same_distribution.json") + " --junit ";
  expect_refused(run_clusterbench(check + dir_.string()), "--junit");
  expect_refused(run_clusterbench(check + "/dev/null"), "--junit");
  expect_refused(run_clusterbench(check + path("missing/dir/x.xml")), "--junit");
  expect_refused(run_clusterbench(check + fixture("baseline.json")), "--junit");
  const std::string theirs = path("theirs.xml");
  std::ofstream(theirs) << "<testsuites/>\n";
  expect_refused(run_clusterbench(check + theirs), "--junit");
  EXPECT_EQ(read_file(theirs), "<testsuites/>\n");

  const std::string qualify =
      "qualify " + qualify_fixture("h200_clean.json") + " --spec h200-sxm --prometheus ";
  expect_refused(run_clusterbench(qualify + dir_.string()), "--prometheus");
  expect_refused(run_clusterbench(qualify + qualify_fixture("h200_clean.json")), "--prometheus");
  const std::string node_file = path("node.prom");
  std::ofstream(node_file) << "node_custom 1\n";
  expect_refused(run_clusterbench(qualify + node_file), "--prometheus");
  expect_refused(
      run_clusterbench("report " + qualify_fixture("h200_clean.json") + " --prometheus /dev/null"),
      "--prometheus");
  // Nothing left behind by the refusals.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_))
    ++entries;
  EXPECT_EQ(entries, 2u);
}

} // namespace
