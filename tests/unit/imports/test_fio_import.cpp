#include <gtest/gtest.h>

#include "core/error.hpp"
#include "imports/fio_import.hpp"

using namespace cb;

namespace {

std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/fio/" + name;
}

} // namespace

TEST(FioImport, OneSequentialJob) {
  const std::string path = fixture("seq_read_psync.json");
  const ImportedRun run = import_fio_file(path);
  EXPECT_TRUE(run.warnings.empty());
  ASSERT_EQ(run.records.size(), 1u);
  const Record& r = run.records[0];
  EXPECT_EQ(r.suite, "storage");
  EXPECT_EQ(r.case_name, "seq_read");
  EXPECT_EQ(r.params, (nlohmann::json{{"block_bytes", 1048576},
                                      {"queue_depth", 1},
                                      {"direct", true},
                                      {"io", "direct"},
                                      {"file_bytes", 268435456}})); // size=256M in "global options"
  EXPECT_EQ(r.gpus, 1);
  // fio's own bw_bytes for this job: 897777444 B/s = io_bytes / runtime.
  EXPECT_NEAR(r.metrics["gbps"].get<double>(), 0.897777444, 1e-9);
  EXPECT_NEAR(r.metrics["latency_us"].get<double>(), 1163.655246094, 1e-6);
  EXPECT_DOUBLE_EQ(r.samples_s[0], 0.299);
  EXPECT_EQ(r.check, DataCheck::skipped); // no verify= option
  EXPECT_TRUE(r.per_rank.empty());
  EXPECT_EQ(r.extra["ioengine"], "psync"); // from "global options"
  EXPECT_EQ(r.extra["target"], "/tmp/fiotest");
  EXPECT_EQ(run.versions["fio"], "fio-3.33");
  EXPECT_EQ(run.started.size(), 20u); // 2026-...T...Z from the epoch timestamp
}

TEST(FioImport, JobsReportedOneByOneMakeOneRecordWithPerJobFigures) {
  const ImportedRun run = import_fio_file(fixture("rand_read_io_uring_per_job.json"));
  ASSERT_EQ(run.records.size(), 1u);
  const Record& r = run.records[0];
  EXPECT_EQ(r.case_name, "rand_read");
  EXPECT_EQ(r.gpus, 4);
  EXPECT_EQ(r.params["block_bytes"], 4096);
  EXPECT_EQ(r.params["queue_depth"], 32);
  EXPECT_EQ(r.extra["ioengine"], "io_uring");
  // The group aggregate: all bytes over the longest job's runtime (2.003 s).
  const double bytes = 107044864.0 + 186494976.0 + 101523456.0 + 208171008.0;
  EXPECT_NEAR(r.metrics["gbps"].get<double>(), bytes / 2.003 / 1e9, 1e-12);
  ASSERT_EQ(r.per_rank.size(), 4u);
  EXPECT_NEAR(r.per_rank[3]["gbps"].get<double>(), 208171008.0 / 2.003 / 1e9, 1e-12);
  EXPECT_EQ(r.per_rank[1]["rank"], 1);
  // IOPS add up over the jobs (fio prints each job's).
  EXPECT_NEAR(r.metrics["iops"].get<double>(),
              13053.946054 + 22754.122939 + 12386.806597 + 25373.43984, 1e-6);
}

TEST(FioImport, GroupReportingAndJobsThatDoNotRead) {
  const std::string path = fixture("group_reporting_mixed.json");
  const ImportedRun run = import_fio_file(path);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0],
            path + ": jobs[0] (prep-write): not imported: rw=write is not a read workload");
  ASSERT_EQ(run.records.size(), 2u);
  const Record& seq = run.records[0];
  EXPECT_EQ(seq.case_name, "seq_read");
  EXPECT_EQ(seq.gpus, 2); // numjobs=2 under group_reporting
  EXPECT_EQ(seq.params["block_bytes"], 262144);
  EXPECT_EQ(seq.params["queue_depth"], 8);
  EXPECT_NEAR(seq.metrics["gbps"].get<double>(), 1.220161163, 1e-9); // fio's bw_bytes
  const Record& rnd = run.records[1];
  EXPECT_EQ(rnd.case_name, "rand_read");
  EXPECT_EQ(rnd.params["block_bytes"], 65536);
  EXPECT_EQ(rnd.extra["ioengine"], "io_uring");
}

TEST(FioImport, NotesBeforeTheJsonAreReportedByLine) {
  const std::string path = fixture("stdout_with_note.json");
  const ImportedRun run = import_fio_file(path);
  ASSERT_EQ(run.records.size(), 1u);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0], path + ":1: cannot parse: note: both iodepth >= 1 and synchronous I/O "
                                    "engine are selected, queue depth will be capped at 1");
  EXPECT_EQ(run.records[0].params["queue_depth"], 4); // as the job asked
}

TEST(FioImport, WrongInputIsRejectedByName) {
  const std::string nccl =
      std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/nccl-tests/all_reduce_perf_8xh100.txt";
  try {
    import_fio_file(nccl);
    ADD_FAILURE() << "a nccl-tests log was read as fio";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              nccl + ": no fio JSON document found (run fio with --output-format=json)");
  }
  EXPECT_THROW(import_fio_json({{"jobs", nlohmann::json::array()}}, "empty.json"), InputError);
  nlohmann::json bad_bs = {{"fio version", "fio-3.36"},
                           {"jobs",
                            {{{"jobname", "x"},
                              {"groupid", 0},
                              {"job options", {{"rw", "read"}, {"bs", "4k-16k"}}},
                              {"read", {{"io_bytes", 1}, {"runtime", 1}}}}}}};
  try {
    import_fio_json(bad_bs, "range.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no read job"), std::string::npos);
  }
  nlohmann::json odd = bad_bs;
  odd["jobs"][0]["error"] = "none";
  odd["jobs"][0]["job options"]["bs"] = "4k";
  try {
    import_fio_json(odd, "odd.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("odd.json: unexpected fio JSON layout", 0), 0u)
        << e.what();
  }
}

TEST(FioImport, ANegativeIodepthOrAZeroRuntimeIsNotImportedWithItsReason) {
  nlohmann::json job = {{"fio version", "fio-3.36"},
                        {"jobs",
                         {{{"jobname", "x"},
                           {"groupid", 0},
                           {"job options", {{"rw", "read"}, {"bs", "4k"}, {"iodepth", "-4"}}},
                           {"read", {{"io_bytes", 1 << 20}, {"runtime", 100}}}}}}};
  auto error_of = [](const nlohmann::json& j) {
    try {
      import_fio_json(j, "f.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of(job).find("not imported: iodepth -4 and numjobs 1"), std::string::npos)
      << error_of(job);
  job["jobs"][0]["job options"]["iodepth"] = "4";
  job["jobs"][0]["read"]["runtime"] = 0;
  EXPECT_NE(error_of(job).find("not imported: a runtime of 0 ms"), std::string::npos)
      << error_of(job);
  job["jobs"][0]["read"]["runtime"] = 100;
  EXPECT_EQ(error_of(job), "");
}

// 10^18 bytes in a millisecond is no disk's figure; a job count past 2^32 wrapped to 2 jobs once.
TEST(FioImport, ImpossibleRatesAndCountsAreNotImported) {
  const std::string path = fixture("seq_read_impossible_rate.json");
  try {
    import_fio_file(path);
    ADD_FAILURE() << "imported";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gbps 1e+12 GB/s is above 100000 GB/s"), std::string::npos)
        << e.what();
  }
  const std::string wraps = fixture("numjobs_wraps_32_bits.json");
  try {
    const ImportedRun run = import_fio_file(wraps);
    for (const auto& r : run.records)
      EXPECT_NE(r.gpus, 2) << "numjobs 4294967298 read as 2";
    ASSERT_FALSE(run.warnings.empty());
    EXPECT_NE(run.warnings[0].find("numjobs 4294967298"), std::string::npos) << run.warnings[0];
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("4294967298"), std::string::npos) << e.what();
  }
}
