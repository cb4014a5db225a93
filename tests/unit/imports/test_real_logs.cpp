// The logs people paste: older nccl-tests layouts, launcher prefixes, fio 2.x, OSU runs that died.
// Every figure asserted here is read off the fixture's table by hand.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/error.hpp"
#include "imports/fio_import.hpp"
#include "imports/nccl_tests_import.hpp"
#include "imports/osu_import.hpp"
#include "imports/text_lines.hpp"

using namespace cb;

namespace {

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/" + name;
}

const Record& find(const ImportedRun& run, long long bytes, bool in_place,
                   const std::string& case_name = "") {
  for (const auto& r : run.records) {
    if (r.params["bytes"] == bytes && r.params.value("in_place", false) == in_place &&
        (case_name.empty() || r.case_name == case_name)) {
      return r;
    }
  }
  throw std::runtime_error("no record of " + std::to_string(bytes) + " bytes");
}

} // namespace

TEST(NcclTestsErrorColumn, ADeviationIsNotAWrongCount) {
  // nccl-tests before 2.13: "error" holds the largest deviation (5e-07 here) and the footer says
  // no value was out of bounds: a clean float all-reduce, every row a passed check.
  const ImportedRun run =
      import_nccl_tests_file(fixture("nccl-tests/legacy_error_column_srun_label.log"));
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  ASSERT_EQ(run.records.size(), 8u);
  for (const auto& r : run.records) {
    EXPECT_EQ(r.check, DataCheck::pass) << r.params.dump();
    EXPECT_DOUBLE_EQ(r.extra["max_deviation"].get<double>(), 5e-07);
    EXPECT_FALSE(r.extra.contains("wrong_elements"));
    EXPECT_EQ(r.extra["out_of_bounds"], 0);
  }
  const Record& last = find(run, 67108864, false);
  EXPECT_EQ(last.case_name, "all_reduce"); // named by the srun command before it
  EXPECT_EQ(last.gpus, 2);
  EXPECT_DOUBLE_EQ(last.metrics["time_us"].get<double>(), 1466.2);
  EXPECT_DOUBLE_EQ(last.metrics["busbw_gbps"].get<double>(), 45.77);
  EXPECT_DOUBLE_EQ(find(run, 8388608, true).metrics["algbw_gbps"].get<double>(), 41.76);
  // srun --label's "0: " is gone from every line; the prompt is not part of the command.
  ASSERT_GE(run.argv.size(), 2u);
  EXPECT_EQ(run.argv[0], "srun");
  EXPECT_EQ(run.argv.back(), "1");
  EXPECT_EQ(run.hosts[0]["host"], "node17");
  EXPECT_EQ(run.hosts[0]["devices"][1]["name"], "Tesla V100-SXM2-32GB");
}

TEST(NcclTestsErrorColumn, OutOfBoundsRowsAreJudgedByTheirDeviation) {
  // 4 ranks, float: 1e-5 is the tightest tolerance nccl-tests used, 1e-5 x (4 - 1) the loosest.
  const ImportedRun run =
      import_nccl_tests_file(fixture("nccl-tests/legacy_all_reduce_out_of_bounds.txt"));
  ASSERT_EQ(run.records.size(), 8u);
  EXPECT_EQ(find(run, 1048576, false).check, DataCheck::pass); // 5e-07
  EXPECT_EQ(find(run, 4194304, false).check, DataCheck::fail); // 3e-01
  EXPECT_EQ(find(run, 4194304, true).check, DataCheck::pass);  // 5e-07
  EXPECT_EQ(find(run, 8388608, true).check, DataCheck::pass);  // 0e+00
  const Record& between = find(run, 2097152, false);  // 2e-05: in bounds for one version only
  EXPECT_EQ(between.check, DataCheck::skipped);
  EXPECT_NE(between.extra["check_note"].get<std::string>().find("tolerances"), std::string::npos);
  EXPECT_EQ(between.extra["out_of_bounds"], 2);
  EXPECT_DOUBLE_EQ(find(run, 4194304, false).extra["max_deviation"].get<double>(), 0.3);
}

TEST(NcclTestsLayouts, TaggedAllGatherWithoutRedopInAMarkdownFence) {
  const std::string path = fixture("nccl-tests/openmpi_tagged_all_gather.md");
  const ImportedRun run = import_nccl_tests_file(path);
  // 4 rows, one of 0 bytes left out: 3 x out-of-place and in-place.
  ASSERT_EQ(run.records.size(), 6u);
  const Record& r = find(run, 1048576, false);
  EXPECT_EQ(r.case_name, "all_gather"); // "...all_gather.md": the only collective the name holds
  EXPECT_FALSE(r.params.contains("op"));
  EXPECT_FALSE(r.params.contains("root"));
  EXPECT_EQ(r.params["dtype"], "float");
  EXPECT_DOUBLE_EQ(r.metrics["time_us"].get<double>(), 61.77);
  EXPECT_DOUBLE_EQ(r.metrics["busbw_gbps"].get<double>(), 8.49);
  EXPECT_EQ(r.check, DataCheck::pass); // 0e+00 and "Out of bounds values : 0 OK"
  EXPECT_EQ(r.extra["count"], 131072);
  ASSERT_EQ(run.warnings.size(), 3u);
  EXPECT_EQ(run.warnings[0], path + ":1: cannot parse: All-gather on the old cluster, before the "
                                    "driver update:");
  EXPECT_EQ(run.warnings[1], path + ":9: skipped 2 NCCL debug line(s) (NCCL_DEBUG output, not "
                                    "part of the table)");
  EXPECT_EQ(run.warnings[2], path + ":14: 1 zero-size row(s) not imported (0 bytes: nothing "
                                    "moved to time)");
}

TEST(NcclTestsLayouts, TimestampsWrapperTagsAndABlankRedop) {
  const ImportedRun run =
      import_nccl_tests_file(fixture("nccl-tests/alltoall_timestamps_blank_redop.log"));
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  ASSERT_EQ(run.records.size(), 6u);
  const Record& r = find(run, 16777216, true);
  EXPECT_EQ(r.case_name, "alltoall");
  EXPECT_FALSE(r.params.contains("op")); // the blank redop
  EXPECT_EQ(r.gpus, 4);
  EXPECT_DOUBLE_EQ(r.metrics["time_us"].get<double>(), 322.05);
  EXPECT_DOUBLE_EQ(r.metrics["busbw_gbps"].get<double>(), 39.07);
  EXPECT_EQ(r.check, DataCheck::fail);
  EXPECT_EQ(r.extra["wrong_elements"], 3);
  EXPECT_EQ(find(run, 16777216, false).check, DataCheck::pass);
  EXPECT_EQ(run.argv, (std::vector<std::string>{"mpirun", "-np", "4", "./build/alltoall_perf", "-b",
                                                "1M", "-e", "16M", "-f", "4", "-g", "1"}));
  EXPECT_EQ(run.versions["nccl"], "2.21.5");
  EXPECT_EQ(run.versions["nccl_tests"], "2.14.1");
}

TEST(NcclTestsNaming, TheCollectiveComesFromTheCommandOrAWholeName) {
  const ImportedRun rs = import_nccl_tests_file(fixture("nccl-tests/nccl_reducescatter.log"));
  ASSERT_EQ(rs.records.size(), 4u);
  for (const auto& r : rs.records)
    EXPECT_EQ(r.case_name, "reduce_scatter"); // not "scatter"
  EXPECT_DOUBLE_EQ(find(rs, 16777216, false).metrics["busbw_gbps"].get<double>(), 9.74);

  const ImportedRun two = import_nccl_tests_file(fixture("nccl-tests/two_runs_by_prompt.txt"));
  EXPECT_TRUE(two.warnings.empty()) << two.warnings.front();
  ASSERT_EQ(two.records.size(), 6u);
  const Record& ar = find(two, 134217728, false, "all_reduce");
  EXPECT_DOUBLE_EQ(ar.metrics["time_us"].get<double>(), 3461.9);
  EXPECT_EQ(ar.extra["test"], "all_reduce_perf");
  EXPECT_EQ(ar.nodes, 2);
  const Record& bc = find(two, 67108864, true, "broadcast");
  EXPECT_DOUBLE_EQ(bc.metrics["busbw_gbps"].get<double>(), 39.50);
  EXPECT_EQ(bc.params["root"], 0);
  EXPECT_EQ(bc.extra["test"], "broadcast_perf");

  EXPECT_EQ(nccl_case_from_file_name("logs/nccl_reducescatter.log"), "reduce_scatter");
  EXPECT_EQ(nccl_case_from_file_name("AllGather-16gpu.txt"), "all_gather");
  EXPECT_EQ(nccl_case_from_file_name("all-reduce.log"), "all_reduce");
  EXPECT_EQ(nccl_case_from_file_name("osu_bcast.txt"), "broadcast");
  EXPECT_EQ(nccl_case_from_file_name("allreduce_vs_allgather.txt"), ""); // two: neither
  EXPECT_EQ(nccl_case_from_program("all_reduce_perf.log"), "");
  EXPECT_EQ(nccl_case_from_program("/opt/bin/sendrecv_perf_mpi"), "sendrecv");
}

TEST(LauncherPrefixes, AreRemovedOnlyInFrontOfToolOutput) {
  auto tool = [](std::string_view rest) {
    return rest.empty() || rest[0] == '#' || std::isdigit(static_cast<unsigned char>(rest[0]));
  };
  EXPECT_EQ(strip_launcher_prefix(" 0: # nThread 1", tool), "# nThread 1");
  EXPECT_EQ(strip_launcher_prefix("[1,0]<stdout>:# nThread 1", tool), "# nThread 1");
  EXPECT_EQ(strip_launcher_prefix("2025-03-04T09:12:01.502Z [node03:0] # x", tool), "# x");
  EXPECT_EQ(strip_launcher_prefix("[2025-03-04 09:12:01] node1: 8 16", tool), "8 16");
  EXPECT_EQ(strip_launcher_prefix("node1:3:     8388608 2", tool), "8388608 2");
  EXPECT_EQ(strip_launcher_prefix("Warning: Permanently added", tool),
            "Warning: Permanently added");
  EXPECT_EQ(strip_launcher_prefix("     8388608   2097152", tool), "8388608   2097152");
}

TEST(EchoedText, IsShortAndOneLine) {
  EXPECT_EQ(shown("a\nb\x01"), "a\\nb\\x01");
  EXPECT_EQ(shown(std::string(200, 'x'), 10), "xxxxxxxxxx\xE2\x80\xA6");
  EXPECT_EQ(shown("caf\xC3\xA9 \xFF"), "caf\xC3\xA9 \\xff");
}

TEST(FioTwo, IoBytesInKibAfterNormalOutputOnOneLine) {
  const std::string path = fixture("fio/fio2_normal_then_json_one_line.txt");
  const ImportedRun run = import_fio_file(path);
  ASSERT_EQ(run.records.size(), 1u);
  const Record& r = run.records[0];
  // 1048576 KiB (1 GiB) in 5000 ms: 0.2147483648 GB/s; fio's own bw says 209715 KiB/s.
  EXPECT_DOUBLE_EQ(r.extra["io_bytes"].get<double>(), 1073741824.0);
  EXPECT_NEAR(r.metrics["gbps"].get<double>(), 0.2147483648, 1e-12);
  EXPECT_NEAR(r.metrics["gbps"].get<double>(), 209715 * 1024.0 / 1e9, 1e-6);
  EXPECT_DOUBLE_EQ(r.metrics["latency_us"].get<double>(), 19500.25); // fio 2's "lat" is in us
  EXPECT_DOUBLE_EQ(r.samples_s[0], 5.0);                             // one pass over size=1g
  EXPECT_EQ(r.params["file_bytes"], 1073741824);
  EXPECT_EQ(r.params["queue_depth"], 4);
  EXPECT_EQ(r.extra["io_bytes_unit"], "KiB (fio 2.x)");
  EXPECT_EQ(run.versions["fio"], "fio-2.2.10");
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0].rfind(path + ":1-10: 8 lines of text before the JSON document", 0), 0u)
      << run.warnings[0];
}

TEST(FioThree, DefaultsAreAssumedAndSaidSo) {
  const ImportedRun run = import_fio_file(fixture("fio/no_job_options.json"));
  ASSERT_EQ(run.records.size(), 1u);
  const Record& r = run.records[0];
  EXPECT_EQ(r.case_name, "seq_read");
  EXPECT_EQ(r.params["block_bytes"], 4096);
  EXPECT_EQ(r.params["queue_depth"], 1);
  EXPECT_EQ(r.params["io"], "buffered");
  EXPECT_NEAR(r.metrics["gbps"].get<double>(), 419430400 / 2.0 / 1e9, 1e-12);
  EXPECT_DOUBLE_EQ(r.metrics["latency_us"].get<double>(), 19.3125);
  EXPECT_EQ(r.extra["assumed_defaults"],
            (nlohmann::json{"rw=read", "bs=4k", "iodepth=1", "direct=0", "ioengine=psync"}));
}

TEST(FioThree, MixedJobsAreLeftOutWithTheReason) {
  const std::string path = fixture("fio/mixed_randrw_and_randread.json");
  const ImportedRun run = import_fio_file(path);
  ASSERT_EQ(run.records.size(), 1u);
  EXPECT_EQ(run.records[0].case_name, "rand_read");
  EXPECT_NEAR(run.records[0].metrics["gbps"].get<double>(), 0.2097152, 1e-12);
  EXPECT_EQ(run.records[0].params["file_bytes"], 209715200); // the job's size=200m
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0], path + ": jobs[0] (oltp-mix): not imported: rw=randrw mixes reads "
                                    "with writes or trims (rwmixread=70); only pure read jobs "
                                    "(rw=read, rw=randread) are imported");
  // Without a version, io_bytes against bw x runtime says which unit: here KiB (fio 2).
  nlohmann::json doc = {
      {"jobs",
       {{{"jobname", "j"},
         {"groupid", 0},
         {"job options", {{"rw", "read"}, {"bs", "1M"}}},
         {"read", {{"io_bytes", 1024000}, {"bw", 102400}, {"runtime", 10000}}}}}}};
  EXPECT_DOUBLE_EQ(import_fio_json(doc, "v.json").records[0].extra["io_bytes"].get<double>(),
                   1024000.0 * 1024);
  doc["jobs"][0]["read"]["bw"] = 7; // neither unit fits: refused, not guessed
  EXPECT_THROW(import_fio_json(doc, "v.json"), InputError);
}

TEST(OsuRealLogs, CudaValidatedFullTableThenACrash) {
  const std::string path = fixture("osu/osu_cuda_allreduce_bcast_crash.txt");
  const ImportedRun run = import_osu_file(path, {2, 1});
  EXPECT_EQ(run.backend, "cuda");
  std::map<std::string, int> cases;
  for (const auto& r : run.records)
    ++cases[r.case_name];
  EXPECT_EQ(cases, (std::map<std::string, int>{{"all_reduce", 19}, {"broadcast", 5}}));
  const Record& r = find(run, 1048576, false, "all_reduce");
  EXPECT_EQ(r.params["dtype"], "float");
  EXPECT_DOUBLE_EQ(r.metrics["time_us"].get<double>(), 815.60);
  EXPECT_DOUBLE_EQ(r.metrics["min_time_us"].get<double>(), 797.00);
  EXPECT_DOUBLE_EQ(r.metrics["max_time_us"].get<double>(), 834.50);
  // 2 ranks: busbw = algbw x 2(n-1)/n = algbw.
  EXPECT_DOUBLE_EQ(r.metrics["algbw_gbps"].get<double>(), 1048576 / 815.60e-6 / 1e9);
  EXPECT_EQ(r.check, DataCheck::pass);
  EXPECT_EQ(find(run, 4096, false, "all_reduce").check, DataCheck::fail); // Validation: Fail
  const Record& last = find(run, 16, false, "broadcast");
  EXPECT_DOUBLE_EQ(last.metrics["time_us"].get<double>(), 9.95);
  EXPECT_EQ(last.extra["ended_early"], true);
  EXPECT_FALSE(r.extra.contains("ended_early"));
  bool said = false;
  for (const auto& w : run.warnings) {
    said = said || w == path + ":37: OSU Broadcast Latency ended early after 5 row(s), the last of "
                               "16 bytes ('*** Process received signal ***'); the finished rows "
                               "are imported";
  }
  EXPECT_TRUE(said);
  EXPECT_EQ(run.warnings.front(), path + ":1: cannot parse: [0] MPI startup(): Intel(R) MPI "
                                         "Library, Version 2021.11  Build 20231005");
}

TEST(ImportWarnings, AreCappedSoAnyLogStaysReadable) {
  std::string text = "# OSU MPI Allreduce Latency Test v7.4\n# Size       Avg Latency(us)\n";
  for (int i = 0; i < 1000; ++i)
    text += "debug line " + std::to_string(i) + "\n";
  text += "8                       2.00\n";
  const ImportedRun run = import_osu_text(text, "noisy.txt", {4, 1});
  ASSERT_EQ(run.records.size(), 1u);
  ASSERT_EQ(run.warnings.size(), ImportedRun::kLinesListed + 1);
  EXPECT_EQ(run.warnings.back(), "noisy.txt: 980 more line(s) that cannot be parsed, not listed");
}

TEST(ImportErrors, AreOneShortLineWhateverThePathAndText) {
  const std::string path = "/logs/" + std::string(400, 'p') + "\n\x1b[31m.txt";
  const std::string table =
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     "
      "time   algbw   busbw  #wrong\n"
      "           8             2     float     sum      -1    10.00    0.00    0.00       0    "
      "10.00    0.00    0.00       0\n";
  for (const auto& text : {std::string("\x01\x02 garbage\n"), table}) {
    try {
      import_nccl_tests_text(text, path);
      ADD_FAILURE() << "imported";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_LT(what.size(), 300u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_EQ(what.find('\x1b'), std::string::npos) << what;
    }
  }
  try {
    import_osu_text("# OSU MPI Allreduce Latency Test v7.4\n", path, {});
    ADD_FAILURE() << "imported without --np";
  } catch (const InputError& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u) << e.what();
  }
}
