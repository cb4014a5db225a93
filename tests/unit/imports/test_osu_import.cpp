#include <gtest/gtest.h>

#include "core/error.hpp"
#include "imports/osu_import.hpp"

using namespace cb;

namespace {

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/osu/" + name;
}

} // namespace

TEST(OsuImport, AllreduceWithTheRankCountGiven) {
  const ImportedRun run = import_osu_file(fixture("osu_allreduce_np16.txt"), {16, 2});
  EXPECT_TRUE(run.warnings.empty());
  ASSERT_EQ(run.records.size(), 21u); // 1 B .. 1 MiB
  const Record& r = run.records.back();
  EXPECT_EQ(r.suite, "collectives");
  EXPECT_EQ(r.case_name, "all_reduce");
  EXPECT_EQ(r.gpus, 16);
  EXPECT_EQ(r.nodes, 2);
  EXPECT_EQ(r.tier, "inter");
  EXPECT_EQ(r.params["bytes"], 1048576);
  EXPECT_EQ(r.params["dtype"], "char");
  EXPECT_EQ(r.params["op"], "sum");
  const double t = r.metrics["time_us"].get<double>();
  EXPECT_DOUBLE_EQ(r.samples_s[0], t * 1e-6);
  EXPECT_DOUBLE_EQ(r.metrics["algbw_gbps"].get<double>(), 1048576 / (t * 1e-6) / 1e9);
  EXPECT_DOUBLE_EQ(r.metrics["busbw_gbps"].get<double>(),
                   r.metrics["algbw_gbps"].get<double>() * 2 * 15 / 16.0);
  EXPECT_EQ(r.check, DataCheck::skipped);
  EXPECT_EQ(run.versions["osu"], "7.4");
}

TEST(OsuImport, CollectivesNeedTheRankCount) {
  try {
    import_osu_file(fixture("osu_allreduce_np16.txt"), {});
    ADD_FAILURE() << "imported without --np";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--np: required for ", 0), 0u) << e.what();
  }
}

TEST(OsuImport, FullAndValidatedTablesOneAfterAnother) {
  const ImportedRun run = import_osu_file(fixture("osu_collectives_np8_full_validate.txt"), {8, 1});
  EXPECT_TRUE(run.warnings.empty());
  ASSERT_EQ(run.records.size(), 51u);
  int fails = 0;
  for (const auto& r : run.records) {
    EXPECT_TRUE(r.metrics.contains("min_time_us"));
    EXPECT_TRUE(r.metrics.contains("max_time_us"));
    if (r.check == DataCheck::fail) {
      ++fails;
      EXPECT_EQ(r.case_name, "alltoall");
      EXPECT_EQ(r.params["message_bytes"], 4096);
    } else {
      EXPECT_EQ(r.check, DataCheck::pass);
    }
  }
  EXPECT_EQ(fails, 1);
  // allgather and alltoall count the whole receive buffer, as nccl-tests does: size x ranks.
  const Record& gather = run.records[10];
  EXPECT_EQ(gather.case_name, "all_gather");
  EXPECT_EQ(gather.params["message_bytes"], 1024);
  EXPECT_EQ(gather.params["bytes"], 8192);
  EXPECT_DOUBLE_EQ(gather.metrics["busbw_gbps"].get<double>(),
                   gather.metrics["algbw_gbps"].get<double>() * 7 / 8.0);
  EXPECT_EQ(run.records[17].case_name, "broadcast");
  EXPECT_DOUBLE_EQ(run.records[17].metrics["busbw_gbps"].get<double>(),
                   run.records[17].metrics["algbw_gbps"].get<double>());
}

TEST(OsuImport, PointToPointLatencyAndBandwidth) {
  const ImportedRun run = import_osu_file(fixture("osu_pt2pt_two_nodes.txt"), {0, 2});
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  std::map<std::string, int> cases;
  for (const auto& r : run.records) {
    ++cases[r.case_name];
    EXPECT_EQ(r.suite, "links");
    EXPECT_EQ(r.gpus, 2);
    EXPECT_EQ(r.tier, "inter");
  }
  EXPECT_EQ(cases, (std::map<std::string, int>{
                       {"pt2pt_latency", 22}, {"pt2pt_bw", 21}, {"pt2pt_bibw", 21}}));
  const Record& lat = run.records[0];
  EXPECT_EQ(lat.params["bytes"], 0);
  EXPECT_TRUE(lat.metrics.contains("latency_us"));
  const Record& bw = run.records[22 + 20]; // 1 MiB
  EXPECT_EQ(bw.case_name, "pt2pt_bw");
  EXPECT_EQ(bw.params["bytes"], 1048576);
  EXPECT_NEAR(bw.metrics["gbps"].get<double>(), 24.2, 0.8); // ~24200 MB/s: OSU's MB are 1e6 B
  EXPECT_DOUBLE_EQ(bw.samples_s[0], 1048576 / (bw.metrics["gbps"].get<double>() * 1e9));
  EXPECT_EQ(bw.extra["buffers"], "Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)");
  EXPECT_EQ(run.backend, "cuda"); // "OSU MPI-CUDA"
  const Record& bibw = run.records.back();
  EXPECT_EQ(bibw.extra["bidirectional"], true);
  EXPECT_GT(bibw.metrics["gbps"].get<double>(), 40);
}

TEST(OsuImport, NoiseIsReportedLineByLine) {
  const std::string path = fixture("osu_allreduce_noisy.txt");
  const ImportedRun run = import_osu_file(path, {4, 1});
  EXPECT_EQ(run.records.size(), 7u); // 8 rows, one cut short
  ASSERT_EQ(run.warnings.size(), 5u);
  EXPECT_EQ(run.warnings[0], path + ":1: cannot parse: " + std::string(74, '-'));
  EXPECT_EQ(run.warnings[1], path + ":2: cannot parse: WARNING: There was an error initializing an "
                                    "OpenFabrics device.");
  EXPECT_EQ(run.warnings[3].rfind(path + ":5: OSU test 'Multiple Bandwidth / Message Rate' is not "
                                         "imported (lines 5-9 left out",
                                  0),
            0u)
      << run.warnings[3];
  EXPECT_EQ(run.warnings[4], path + ":19: cannot parse: 32");
}

TEST(OsuImport, AFileWithoutATableIsAnError) {
  try {
    import_osu_text("# just a comment\n", "empty.txt", {2, 1});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("empty.txt: no OSU table found", 0), 0u);
  }
}

// 100 PB/s between two nodes is an edited log, not a measurement: refused by its line.
TEST(OsuImport, ARateNoHardwareReachesIsRefusedByLine) {
  const std::string path = fixture("osu_bw_impossible.txt");
  try {
    import_osu_file(path, {0, 2});
    ADD_FAILURE() << "imported";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":40: gbps 1e+08 GB/s is above 100000 GB/s", 0),
              0u)
        << e.what();
  }
}
