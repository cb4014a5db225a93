#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/error.hpp"
#include "imports/importer.hpp"
#include "qualify/qualify.hpp"
#include "qualify/spec.hpp"
#include "results/results_io.hpp"

using namespace cb;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/" + name;
}

} // namespace

TEST(Importer, MergesFilesIntoOneValidResultsFile) {
  const ImportOutcome outcome =
      import_files(ImportTool::nccl_tests,
                   {fixture("nccl-tests/all_reduce_perf_8xh100.txt"),
                    fixture("nccl-tests/reduce_scatter_sendrecv_noisy.txt"),
                    fixture("nccl-tests/all_reduce_perf_8xh200.json")},
                   {});
  EXPECT_EQ(outcome.results.records.size(), 32u + 18u + 16u);
  EXPECT_EQ(outcome.warnings.size(), 3u);
  const auto& run = outcome.results.run;
  EXPECT_EQ(run["launcher"], "import:nccl-tests");
  EXPECT_EQ(run["backend"], "cuda");
  EXPECT_EQ(run["id"], "import-nccl-tests-all_reduce_perf_8xh100");
  EXPECT_EQ(run["argv"][0], "mpirun"); // the first file that records its command
  EXPECT_EQ(run["hosts"].size(), 2u);  // gpu-node-07 and gpu-node-09
  EXPECT_EQ(run["imported_from"].size(), 3u);
  EXPECT_EQ(run["versions"]["nccl"], "2.27.3"); // later files' versions win

  const fs::path out =
      fs::temp_directory_path() / ("cb-import-" + std::to_string(::getpid()) + ".json");
  write_results_atomic(outcome.results, out.string());
  const ResultsFile back = load_results(out.string()); // validates the schema
  fs::remove(out);
  EXPECT_EQ(back.records.size(), outcome.results.records.size());
  EXPECT_EQ(back.records[0].samples_s.size(), 1u);
}

TEST(Importer, EveryFileMustHoldATable) {
  try {
    import_files(ImportTool::osu,
                 {fixture("osu/osu_allreduce_np16.txt"), fixture("fio/seq_read_psync.fio")},
                 {{16, 2}});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(fixture("fio/seq_read_psync.fio") + ": no OSU table", 0),
              0u);
  }
  EXPECT_THROW(import_files(ImportTool::fio, {}, {}), InputError);
  EXPECT_THROW(import_tool_from_name("nccl"), InputError);
  EXPECT_EQ(import_tool_from_name("osu"), ImportTool::osu);
}

TEST(Importer, ImportedRecordsAreQualifiedButNotTrusted) {
  // One sample per figure: a spec check on imported numbers is INCONCLUSIVE, not PASS.
  const ImportOutcome outcome =
      import_files(ImportTool::nccl_tests, {fixture("nccl-tests/all_reduce_perf_8xh200.json")}, {});
  const Spec spec = load_spec_file(std::string(CB_SOURCE_DIR) + "/harness/specs/h200-sxm.json");
  const QualifyReport report = qualify(outcome.results, "imported.json", spec);
  bool judged = false;
  for (const auto& row : report.rows) {
    if (row.check.id != "all-reduce-8gpu")
      continue;
    judged = true;
    EXPECT_EQ(row.verdict, Verdict::inconclusive);
    EXPECT_NEAR(*row.measured, 479, 6);
    EXPECT_NE(row.note.find("1 sample (fewer than 3)"), std::string::npos) << row.note;
  }
  EXPECT_TRUE(judged);
}

// The import command hands every record to a sink as each table ends, to write it out at once:
// the same records in the same order as the run collected whole, with every table's footer
// (an "Out of bounds" line, a run that ended early) already applied.
TEST(Importer, SinkTakesTheRecordsTheRunWouldHold) {
  const std::vector<std::pair<ImportTool, std::vector<std::string>>> cases = {
      {ImportTool::nccl_tests,
       {fixture("nccl-tests/legacy_all_reduce_out_of_bounds.txt"),
        fixture("nccl-tests/two_runs_by_prompt.txt"),
        fixture("nccl-tests/all_reduce_perf_8xh200.json")}},
      {ImportTool::osu,
       {fixture("osu/osu_cuda_allreduce_bcast_crash.txt"),
        fixture("osu/osu_collectives_np8_full_validate.txt")}},
      {ImportTool::fio, {fixture("fio/seq_read_psync.json")}}};
  for (const auto& [tool, files] : cases) {
    const ImportOutcome whole = import_files(tool, files, {{8, 1}});
    std::vector<nlohmann::json> streamed;
    const ImportOutcome sunk = import_files(
        tool, files, {{8, 1}}, [&](Record&& r) { streamed.push_back(record_to_json(r)); });
    EXPECT_TRUE(sunk.results.records.empty());
    ASSERT_EQ(streamed.size(), whole.results.records.size()) << files.front();
    for (std::size_t i = 0; i < streamed.size(); ++i)
      EXPECT_EQ(streamed[i], record_to_json(whole.results.records[i])) << files.front() << " " << i;
    EXPECT_EQ(sunk.warnings, whole.warnings);
  }
}
