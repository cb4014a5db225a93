// An imported run lines up with a measured one of the same cases in `check` and `compare`:
// one normalisation of the size keys (verdicts/case_matching) for every source.
#include <gtest/gtest.h>

#include <set>

#include "imports/importer.hpp"
#include "results/results_io.hpp"
#include "verdicts/case_matching.hpp"
#include "verdicts/cluster_compare.hpp"
#include "verdicts/regression_check.hpp"
#include "verdicts/run_figures.hpp"

using namespace cb;

namespace {

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/" + name;
}

// `clusterbench run --quick --np 2 --suite collectives,storage` on the host backend, trimmed to
// all_reduce and seq_read (file_bytes 64M, block 1M, direct, queue depth 1).
ResultsFile measured() {
  return load_results(fixture("measured_host_np2_quick.json"));
}

std::set<std::string> common_ids(const ResultsFile& a, const ResultsFile& b) {
  const CaseIndex ia = index_cases(a), ib = index_cases(b);
  std::set<std::string> ids;
  for (const auto& [x, y] : match_cases(ia, ib).both)
    ids.insert(describe_case(x->key));
  return ids;
}

// A side of one run: `check` judges runs, and a file is one.
RunSide one_run(const ResultsFile& results, const std::string& path) {
  return RunSide{{summarize_run(results, path)}};
}

} // namespace

TEST(ImportedVsMeasured, NcclTestsAllReduce) {
  const ResultsFile imported =
      import_files(ImportTool::nccl_tests, {fixture("nccl-tests/all_reduce_perf_2gpu.txt")}, {})
          .results;
  // 4096 .. 2M, out-of-place and in-place: the measured run's `count` does not keep them apart.
  const auto ids = common_ids(measured(), imported);
  EXPECT_EQ(ids.size(), 8u);
  EXPECT_EQ(ids.count("collectives/all_reduce bytes=2M dtype=float out-of-place op=sum, 2 GPUs"),
            1u)
      << *ids.begin();
  const CheckReport check = check_regressions(one_run(measured(), "measured.json"),
                                              one_run(imported, "imported.txt"), CheckOptions{});
  EXPECT_EQ(check.cases.size(), 8u);
  const ClusterComparison compare = compare_clusters(measured(), imported);
  EXPECT_EQ(compare.cases.size(), 8u);
}

TEST(ImportedVsMeasured, OsuAllReduce) {
  ImportOptions options;
  options.osu = {2, 1};
  const ResultsFile imported =
      import_files(ImportTool::osu, {fixture("osu/osu_cuda_allreduce_bcast_crash.txt")}, options)
          .results;
  // OSU sizes 4 .. 1M against the measured 8 .. 2M (factor 8): 8, 64, 512, 4K, 32K, 256K;
  // OSU times out-of-place only. Its message_bytes and the measured count are not identity.
  const auto ids = common_ids(measured(), imported);
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_EQ(ids.count("collectives/all_reduce bytes=256K dtype=float out-of-place op=sum, 2 GPUs"),
            1u);
  EXPECT_EQ(check_regressions(one_run(measured(), "measured.json"),
                              one_run(imported, "imported.txt"), CheckOptions{})
                .cases.size(),
            6u);
  EXPECT_EQ(compare_clusters(measured(), imported).cases.size(), 6u);
}

TEST(ImportedVsMeasured, FioSequentialRead) {
  const ResultsFile imported =
      import_files(ImportTool::fio, {fixture("fio/seq_read_2jobs_64m.json")}, {}).results;
  const auto ids = common_ids(measured(), imported);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(*ids.begin(), "storage/seq_read block_bytes=1M file_bytes=64M io=direct "
                          "queue_depth=1, 2 GPUs");
  const ClusterComparison compare = compare_clusters(measured(), imported);
  ASSERT_EQ(compare.cases.size(), 1u);
  // Both sides are seconds per pass over a 64M file: fio's 70 ms for 2 x 64M by 2 jobs.
  EXPECT_EQ(compare.cases[0].basis, "time_s");
  EXPECT_NEAR(compare.cases[0].b_time_s, 0.070, 1e-12);
}

TEST(ComparableParams, DropOnlyKeysThatFollowFromOthers) {
  EXPECT_EQ(
      comparable_params(
          "collectives",
          {{"bytes", 64}, {"count", 16}, {"message_bytes", 8}, {"dtype", "float"}, {"root", 0}}),
      (nlohmann::json{{"bytes", 64}, {"dtype", "float"}}));
  EXPECT_EQ(comparable_params("collectives", {{"bytes", 64}, {"root", 3}}),
            (nlohmann::json{{"bytes", 64}, {"root", 3}}));
  EXPECT_EQ(comparable_params("storage", {{"bytes", 100},
                                          {"file_bytes", 128},
                                          {"block_bytes", 64},
                                          {"direct", true},
                                          {"io", "direct"}}),
            (nlohmann::json{{"file_bytes", 128}, {"block_bytes", 64}, {"io", "direct"}}));
  // Without file_bytes a storage read's bytes is its identity.
  EXPECT_EQ(comparable_params("storage", {{"bytes", 100}, {"block_bytes", 64}}),
            (nlohmann::json{{"bytes", 100}, {"block_bytes", 64}}));
}
