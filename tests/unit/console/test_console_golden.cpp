// Golden output: the console tables, the end-of-run summary and the JSON of a fixed set of
// records, pinned byte for byte (the model is google/benchmark's reporter_output_test). A change
// to what a user reads or a script parses shows here as a diff. After a deliberate change,
// regenerate with CB_UPDATE_GOLDEN=1 ./test_console and review the diff of tests/fixtures/golden.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "golden_records.hpp"
#include "runtime/run_summary.hpp"

using namespace cb;

namespace {

std::string golden_path(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/golden/" + name;
}

// The first line where the two differ, for a failure message that says where.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b)
      return "the same lines, different line ends";
    if (!more_a || !more_b || la != lb) {
      return "line " + std::to_string(line) + ":\n  golden: " + (more_a ? la : "(end)") +
             "\n  now:    " + (more_b ? lb : "(end)");
    }
  }
}

void expect_golden(const std::string& name, const std::string& text) {
  const std::string path = golden_path(name);
  if (std::getenv("CB_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << text;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << path << " (CB_UPDATE_GOLDEN=1 writes it)";
  std::ostringstream want;
  want << in.rdbuf();
  EXPECT_EQ(want.str(), text) << name << " differs at " << first_difference(want.str(), text);
}

} // namespace

TEST(ConsoleGolden, TablesOfEveryFamily) {
  std::ostringstream out;
  for (const auto& table : golden::tables()) {
    // A fresh printer per table, as the sweep makes one per case.
    const auto printer = PrinterRegistry::instance().create(table.heading.suite);
    printer->heading(out, table.heading);
    for (const auto& records : table.instances)
      printer->rows(out, records);
  }
  expect_golden("console_tables.txt", out.str());
}

TEST(ConsoleGolden, EndOfRunSummary) {
  const SweepSummary s = golden::summary();
  const std::string text = run_summary_text(s, 512.0 * 1048576, "results/run-2gpu.json", false) +
                           run_summary_text(s, 1536.0 * 1048576, "results/threads.json", true);
  expect_golden("run_summary.txt", text);
}

TEST(ConsoleGolden, RecordsAsJson) {
  nlohmann::json records = nlohmann::json::array();
  for (const auto& table : golden::tables()) {
    for (const auto& instance : table.instances) {
      for (const auto& r : instance)
        records.push_back(record_to_json(r));
    }
  }
  expect_golden("records.json", records.dump(2) + "\n");
}

TEST(ConsoleGolden, SummaryCountsAddUp) {
  // The golden summary's first line must describe its own records: 21 in all.
  const SweepSummary s = golden::summary();
  EXPECT_EQ(s.records, 21);
  EXPECT_EQ(s.noisy, 2);
  EXPECT_EQ(s.skipped, 2);
  EXPECT_EQ(s.failed, 2);
  EXPECT_EQ(s.check_failed, 2);
}
