#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "imports/nccl_tests_import.hpp"
#include "imports/text_lines.hpp"

using namespace cb;

namespace {

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/" + name;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const Record& find(const ImportedRun& run, long long bytes, bool in_place, int gpus = 0) {
  for (const auto& r : run.records) {
    if (r.params["bytes"] == bytes && r.params["in_place"] == in_place &&
        (gpus == 0 || r.gpus == gpus)) {
      return r;
    }
  }
  throw std::runtime_error("no record of " + std::to_string(bytes) + " bytes");
}

} // namespace

TEST(NcclTestsText, ReadsEveryRowOfAnEightGpuTable) {
  const std::string path = fixture("nccl-tests/all_reduce_perf_8xh100.txt");
  const ImportedRun run = import_nccl_tests_file(path);
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  ASSERT_EQ(run.records.size(), 32u); // 16 sizes, out-of-place and in-place
  const Record& last = find(run, 8589934592LL, false);
  EXPECT_EQ(last.suite, "collectives");
  EXPECT_EQ(last.case_name, "all_reduce");
  EXPECT_EQ(last.gpus, 8);
  EXPECT_EQ(last.nodes, 1);
  EXPECT_EQ(last.ranks_per_node, 8);
  EXPECT_EQ(last.tier, "intra");
  EXPECT_DOUBLE_EQ(last.metrics["time_us"].get<double>(), 31265.9);
  EXPECT_DOUBLE_EQ(last.metrics["algbw_gbps"].get<double>(), 274.74);
  EXPECT_DOUBLE_EQ(last.metrics["busbw_gbps"].get<double>(), 480.79);
  ASSERT_EQ(last.samples_s.size(), 1u);
  EXPECT_DOUBLE_EQ(last.samples_s[0], 31265.9e-6);
  EXPECT_DOUBLE_EQ(last.stats.median, 31265.9e-6);
  EXPECT_EQ(last.params["dtype"], "float");
  EXPECT_EQ(last.params["op"], "sum");
  EXPECT_FALSE(last.params.contains("root"));
  EXPECT_EQ(last.check, DataCheck::pass);
  EXPECT_EQ(last.status, RecordStatus::ok);
  EXPECT_DOUBLE_EQ(last.extra["avg_bus_bandwidth_gbps"].get<double>(), 182.809);
  EXPECT_EQ(last.extra["source"], path + ":33");
  EXPECT_EQ(last.extra["test"], "all_reduce_perf");
  EXPECT_DOUBLE_EQ(find(run, 8589934592LL, true).metrics["busbw_gbps"].get<double>(), 477.12);

  ASSERT_EQ(run.hosts.size(), 1u);
  EXPECT_EQ(run.hosts[0]["host"], "gpu-node-07");
  ASSERT_EQ(run.hosts[0]["devices"].size(), 8u);
  EXPECT_EQ(run.hosts[0]["devices"][7]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(run.hosts[0]["devices"][7]["pci_bus_id"], "0000:db:00");
  EXPECT_EQ(run.versions["nccl"], "2.27.5");
  EXPECT_EQ(run.backend, "cuda");
}

TEST(NcclTestsText, ConcatenatedRunsKeepTheirGpuCounts) {
  const ImportedRun run = import_nccl_tests_file(fixture("nccl-tests/all_gather_perf_2_4_8.txt"));
  EXPECT_TRUE(run.warnings.empty());
  ASSERT_EQ(run.records.size(), 36u);
  std::map<int, int> per_count;
  for (const auto& r : run.records) {
    ++per_count[r.gpus];
    EXPECT_EQ(r.case_name, "all_gather");
    EXPECT_FALSE(r.params.contains("op")); // redop "none"
  }
  EXPECT_EQ(per_count, (std::map<int, int>{{2, 12}, {4, 12}, {8, 12}}));
  EXPECT_NEAR(find(run, 1073741824LL, false, 8).metrics["busbw_gbps"].get<double>(), 362, 8);
}

TEST(NcclTestsText, TwoNodesAndTwoCollectivesInOneLog) {
  const ImportedRun run =
      import_nccl_tests_file(fixture("nccl-tests/alltoall_broadcast_2x8xh100.txt"));
  EXPECT_TRUE(run.warnings.empty());
  ASSERT_EQ(run.records.size(), 24u);
  std::set<std::string> cases;
  for (const auto& r : run.records) {
    cases.insert(r.case_name);
    EXPECT_EQ(r.gpus, 16);
    EXPECT_EQ(r.nodes, 2);
    EXPECT_EQ(r.ranks_per_node, 8);
    EXPECT_EQ(r.tier, "inter");
    if (r.case_name == "broadcast") {
      EXPECT_EQ(r.params["root"], 0);
    } else {
      EXPECT_FALSE(r.params.contains("root"));
    }
  }
  EXPECT_EQ(cases, (std::set<std::string>{"alltoall", "broadcast"}));
  ASSERT_EQ(run.hosts.size(), 2u);
  EXPECT_EQ(run.hosts[1]["host"], "gpu-node-08");
  EXPECT_EQ(run.hosts[1]["devices"].size(), 8u);
}

TEST(NcclTestsText, ReportsWhatItCannotReadAndKeepsTheRest) {
  const std::string path = fixture("nccl-tests/reduce_scatter_sendrecv_noisy.txt");
  const ImportedRun run = import_nccl_tests_file(path);
  ASSERT_EQ(run.warnings.size(), 3u);
  EXPECT_EQ(run.warnings[0], path + ":2: cannot parse: Warning: Permanently added 'gpu-node-07' "
                                    "(ED25519) to the list of known hosts.");
  EXPECT_EQ(run.warnings[1].rfind(path + ":24: cannot parse: 16777216", 0), 0u) << run.warnings[1];
  EXPECT_EQ(run.warnings[2], path + ":9: skipped 2 NCCL debug line(s) (NCCL_DEBUG output, not "
                                    "part of the table)");
  EXPECT_EQ(run.argv.front(), "mpirun");
  EXPECT_EQ(run.argv.back(), "1");
  int reduce_scatter = 0, failed = 0, unchecked = 0;
  for (const auto& r : run.records) {
    if (r.case_name == "reduce_scatter")
      ++reduce_scatter;
    if (r.check == DataCheck::fail) {
      ++failed;
      EXPECT_EQ(r.params["bytes"], 67108864);
      EXPECT_EQ(r.params["in_place"], true);
    }
    if (r.case_name == "sendrecv") {
      EXPECT_EQ(r.check, DataCheck::skipped); // -c 0 prints N/A
      ++unchecked;
    }
  }
  EXPECT_EQ(reduce_scatter, 8); // the cut row is not half-imported
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(unchecked, 10);
}

TEST(NcclTestsText, ReadsTheOlderLayoutNamedByItsFile) {
  const ImportedRun run =
      import_nccl_tests_file(fixture("nccl-tests/legacy_all_reduce_4xa100.txt"));
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  ASSERT_EQ(run.records.size(), 10u);
  const Record& r = find(run, 134217728, false);
  EXPECT_EQ(r.case_name, "all_reduce");
  EXPECT_EQ(r.gpus, 4);
  EXPECT_EQ(r.check, DataCheck::pass); // "0e+00" in the error column
  EXPECT_DOUBLE_EQ(r.metrics["busbw_gbps"].get<double>(), 186.48);
  EXPECT_EQ(run.hosts[0]["devices"][1]["pci_bus_id"], "0x0f");
}

TEST(NcclTestsText, WrongKindsOfFileAreRejectedByName) {
  EXPECT_EQ(error_of([] { import_nccl_tests_text("hello\nworld\n", "notes.txt"); }),
            "notes.txt: no nccl-tests table found (expected the '#  size  count  type redop ...' "
            "header of an *_perf run and its rows)");
  const std::string table =
      "# nThread 1 nGpus 2 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20\n"
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     "
      "time   algbw   busbw  #wrong\n"
      "           8             2     float     sum      -1    10.00    0.00    0.00       0    "
      "10.00    0.00    0.00       0\n";
  EXPECT_NE(error_of([&] {
              import_nccl_tests_text(table, "run3.log");
            }).find("run3.log:3: cannot tell which collective"),
            std::string::npos);
  EXPECT_EQ(import_nccl_tests_text(table, "logs/broadcast.log").records.size(), 2u);
  EXPECT_NE(error_of([] {
              import_nccl_tests_file(fixture("fio/seq_read_psync.json"));
            }).find("not nccl-tests JSON output"),
            std::string::npos);
}

TEST(NcclTestsJson, ReadsTheDashJOutput) {
  const std::string path = fixture("nccl-tests/all_reduce_perf_8xh200.json");
  const ImportedRun run = import_nccl_tests_file(path);
  EXPECT_TRUE(run.warnings.empty());
  ASSERT_EQ(run.records.size(), 16u);
  const Record& r = find(run, 17179869184LL, false);
  EXPECT_EQ(r.case_name, "all_reduce");
  EXPECT_EQ(r.gpus, 8);
  EXPECT_EQ(r.check, DataCheck::pass);
  EXPECT_NEAR(r.metrics["busbw_gbps"].get<double>(), 479, 6);
  EXPECT_DOUBLE_EQ(r.samples_s[0] * 1e6, r.metrics["time_us"].get<double>());
  EXPECT_EQ(r.extra["source"], path + ": results[7]");
  EXPECT_EQ(run.argv, (std::vector<std::string>{"./build/all_reduce_perf", "-b", "1M", "-e", "16G",
                                                "-f", "4", "-J", "ar_h200.json"}));
  EXPECT_EQ(run.versions["nccl"], "2.27.3");
  EXPECT_EQ(run.started, "2026-10-21 09:14:03");
  EXPECT_EQ(run.hosts[0]["devices"].size(), 8u);
}

TEST(NcclTestsJson, NullsAndUnreadableRowsAreHandled) {
  nlohmann::json j =
      nlohmann::json::parse(read_text_file(fixture("nccl-tests/all_reduce_perf_8xh200.json")));
  j["results"][0]["out_of_place"] = nullptr;       // trace replay: in-place only
  j["results"][1]["in_place"]["nwrong"] = nullptr; // checking off
  j["results"][2] = "garbage";
  const ImportedRun run = import_nccl_tests_json(j, "x.json");
  EXPECT_EQ(run.records.size(), 13u);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0], "x.json: results[2]: cannot parse: \"garbage\"");
  EXPECT_EQ(run.records[0].params["in_place"], true);
  EXPECT_EQ(run.records[2].check, DataCheck::skipped);
  j["config"]["ngpus"] = "eight";
  try {
    import_nccl_tests_json(j, "x.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("x.json: unexpected nccl-tests JSON layout", 0), 0u);
  }
}

TEST(NcclTestsNames, ProgramsTypesAndVersions) {
  EXPECT_EQ(nccl_case_from_program("./build/all_reduce_perf"), "all_reduce");
  EXPECT_EQ(nccl_case_from_program("/opt/nccl-tests/alltoall_perf_mpi"), "alltoall");
  EXPECT_EQ(nccl_case_from_program("mpirun"), "");
  EXPECT_EQ(nccl_case_from_file_name("x/reduce_scatter_16.txt"), "reduce_scatter");
  EXPECT_EQ(nccl_case_from_file_name("reduce.txt"), "reduce");
  EXPECT_EQ(nccl_dtype("half"), "fp16");
  EXPECT_EQ(nccl_dtype("bfloat16"), "bf16");
  EXPECT_EQ(nccl_dtype("int8"), "int8");
  EXPECT_EQ(nccl_version_from_code(22703), "2.27.3");
  EXPECT_EQ(nccl_version_from_code(2708), "2.7.8");
  EXPECT_EQ(strip_mpi_tag("[1,3]<stdout>:# nThread 1"), "# nThread 1");
  EXPECT_EQ(strip_mpi_tag("[not a tag] x"), "[not a tag] x");
}

// nccl-tests defines algbw = size / time and busbw = algbw x the bus factor: a row whose figures
// disagree was edited or garbled, and is refused by its line rather than imported as measured.
TEST(NcclTestsText, FiguresThatContradictTheRowAreRefusedByLine) {
  const std::string path = fixture("nccl-tests/all_reduce_perf_edited_busbw.txt");
  const std::string why = error_of([&] { import_nccl_tests_file(path); });
  EXPECT_EQ(why.rfind(path + ":15: busbw 1e+08 GB/s is not algbw 50.69 x 1", 0), 0u) << why;
  const std::string impossible = fixture("nccl-tests/all_reduce_perf_impossible_time.txt");
  EXPECT_NE(error_of([&] { import_nccl_tests_file(impossible); }).find(":13: algbw 2.77 GB/s"),
            std::string::npos)
      << error_of([&] { import_nccl_tests_file(impossible); });
}

TEST(NcclTestsJson, ContradictoryFiguresAndNegativeSizesAreNotImported) {
  const nlohmann::json original =
      nlohmann::json::parse(read_text_file(fixture("nccl-tests/all_reduce_perf_8xh200.json")));
  nlohmann::json j = original;
  j["results"][1]["out_of_place"]["alg_bw"] = 5000.0; // the row's size and time give ~0.4 GB/s
  EXPECT_NE(error_of([&] {
              import_nccl_tests_json(j, "x.json");
            }).find("x.json: results[1]: algbw 5000 GB/s is not its size over its time"),
            std::string::npos);
  j = original;
  j["results"][0]["size"] = -5;
  const ImportedRun run = import_nccl_tests_json(j, "x.json");
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0].rfind("x.json: results[0]: cannot parse", 0), 0u) << run.warnings[0];
  for (const auto& r : run.records)
    EXPECT_GE(r.params["bytes"].get<long long>(), 0);
}
