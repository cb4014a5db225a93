// clusterbench's own collectives table, read back by `clusterbench import nccl-tests`: the
// figures a user sees are the figures the importer recovers (to the table's two decimals), the
// halves it skipped are absent, the noisy ones stay noisy, and the shape comes from the heading.
// The log is a whole run's console output: the other suites' sections are passed over, unwarned.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "golden_records.hpp"
#include "imports/nccl_tests_import.hpp"
#include "runtime/run_summary.hpp"

using namespace cb;

namespace {

// The printed value of a figure: the table shows two decimals.
double printed(double v) {
  return std::round(v * 100) / 100;
}

const Record* find(const ImportedRun& run, const Record& original) {
  for (const auto& r : run.records) {
    if (r.case_name == original.case_name && r.params["bytes"] == original.params["bytes"] &&
        r.params["dtype"] == original.params["dtype"] &&
        r.params["in_place"] == original.params["in_place"])
      return &r;
  }
  return nullptr;
}

} // namespace

TEST(CollectivesTableRoundTrip, ImportGivesTheSameFiguresBack) {
  std::ostringstream log;
  log << "# clusterbench run: 16 ranks on 2 nodes, backend cuda, GPU counts 1,2,4,8,16\n"
      << "# plan: 21 records in 7 phases, estimated 12s (every record at its cap: 30s)\n";
  std::vector<Record> shown; // every half the table shows with figures
  std::size_t hidden = 0;    // halves it marks skip or leaves out
  for (const auto& table : golden::tables()) {
    const auto printer = PrinterRegistry::instance().create(table.heading.suite);
    printer->heading(log, table.heading);
    for (const auto& records : table.instances) {
      printer->rows(log, records);
      if (table.heading.suite != "collectives")
        continue;
      for (const auto& r : records) {
        if (r.status == RecordStatus::skipped)
          ++hidden;
        else
          shown.push_back(r);
      }
    }
  }
  log << run_summary_text(golden::summary(), 1048576.0, "results/run.json", false);
  ASSERT_GT(hidden, 0u);
  const ImportedRun run = import_nccl_tests_text(log.str(), "clusterbench-console.log");
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  ASSERT_EQ(run.records.size(), shown.size()) << log.str();
  for (const auto& original : shown) {
    const Record* back = find(run, original);
    ASSERT_NE(back, nullptr) << original.case_name << " " << original.params.dump();
    const std::string what = original.case_name + " " + original.params.dump();
    EXPECT_EQ(back->suite, "collectives");
    EXPECT_EQ(back->gpus, original.gpus) << what;
    EXPECT_EQ(back->nodes, original.nodes) << what;
    EXPECT_EQ(back->extra["count"], original.params["count"]) << what;
    EXPECT_EQ(back->params.value("op", "none"), original.params.value("op", "none")) << what;
    for (const char* metric : {"time_us", "algbw_gbps", "busbw_gbps"}) {
      EXPECT_DOUBLE_EQ(back->metrics[metric].get<double>(),
                       printed(original.metrics[metric].get<double>()))
          << what << " " << metric;
    }
    EXPECT_EQ(back->extra["wrong_elements"], original.extra["wrong_elements"]) << what;
    EXPECT_EQ(back->check, original.check) << what;
    EXPECT_EQ(back->status == RecordStatus::noisy, original.status == RecordStatus::noisy) << what;
  }
}

TEST(CollectivesTableRoundTrip, AConsoleLogKeepsTheBackendItsHeadingsName) {
  // A host run's log is not relabelled cuda: compare would then call every record a backend
  // change. nccl-tests' own output has no such heading and stays cuda.
  for (const auto& table : golden::tables()) {
    if (table.heading.suite != "collectives" || table.heading.backend != "host")
      continue;
    std::ostringstream log;
    const auto printer = PrinterRegistry::instance().create(table.heading.suite);
    printer->heading(log, table.heading);
    for (const auto& records : table.instances)
      printer->rows(log, records);
    const ImportedRun run = import_nccl_tests_text(log.str(), "clusterbench-console.log");
    ASSERT_FALSE(run.records.empty()) << log.str();
    EXPECT_EQ(run.backend, "host") << table.heading.name;
  }
  const std::string nccl_tests =
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
      "time   algbw   busbw #wrong\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            "
      "(us)  (GB/s)  (GB/s)\n"
      "     1048576        262144     float     sum      -1    20.00   52.43   52.43      0    "
      "20.10   52.17   52.17      0\n";
  const ImportedRun gpu = import_nccl_tests_text(nccl_tests, "all_reduce_perf.txt");
  ASSERT_EQ(gpu.records.size(), 2u); // out of place and in place
  EXPECT_EQ(gpu.backend, "cuda");
}
