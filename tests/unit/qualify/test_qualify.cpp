#include <gtest/gtest.h>

#include "core/error.hpp"
#include "qualify/qualify.hpp"
#include "qualify/qualify_report.hpp"
#include "qualify/reference_spec.hpp"
#include "results/results_io.hpp"
#include "test_support.hpp"

using namespace cb;

namespace {

const std::string kFixtures = "tests/fixtures/qualify/";

Spec h200() {
  return load_spec_file(test::source_path("harness/specs/h200-sxm.json"));
}

QualifyReport qualify_fixture(const std::string& name, const Spec& spec) {
  const std::string path = test::source_path(kFixtures + name);
  return qualify(load_results(path), path, spec);
}

const CheckRow* row_of(const QualifyReport& report, const std::string& id, int gpus) {
  for (const auto& row : report.rows) {
    if (row.check.id == id &&
        row.record.find(" gpus=" + std::to_string(gpus)) != std::string::npos) {
      return &row;
    }
  }
  return nullptr;
}

Expectation copy_check(double expected, double fraction) {
  Expectation e;
  e.id = "copy";
  e.suite = "compute";
  e.case_name = "copy";
  e.metric = "gbps";
  e.expected = expected;
  e.fraction = fraction;
  return e;
}

} // namespace

TEST(QualifyFixtures, CleanH200Passes) {
  const QualifyReport report = qualify_fixture("h200_clean.json", h200());
  for (const auto& row : report.rows) {
    EXPECT_EQ(row.verdict, Verdict::pass) << row.check.id << " " << row.record << " " << row.note;
  }
  EXPECT_TRUE(report.fleet.outliers.empty());
  EXPECT_GT(report.fleet.fleets_examined, 20);
  EXPECT_EQ(report.fleet_verdict, Verdict::pass);
  EXPECT_EQ(report.overall, Verdict::pass);
  EXPECT_EQ(qualify_exit_code(report, false), 0);
  // Every GPU count of the copy kernel was judged, and the 16 GiB all_reduce on 8 GPUs.
  for (int gpus : {1, 2, 4, 8})
    EXPECT_NE(row_of(report, "hbm-copy", gpus), nullptr) << gpus;
  const CheckRow* ar = row_of(report, "all-reduce-8gpu", 8);
  ASSERT_NE(ar, nullptr);
  EXPECT_NEAR(*ar->measured, 479, 2);
}

TEST(QualifyFixtures, SlowGpuFailsAndIsNamed) {
  const std::string path = test::source_path(kFixtures + "h200_slow_gpu.json");
  const ResultsFile results = load_results(path);
  const std::string uuid5 = results.run["hosts"][0]["devices"][5]["uuid"].get<std::string>();
  const QualifyReport report = qualify(results, path, h200());
  EXPECT_EQ(report.overall, Verdict::fail);
  EXPECT_EQ(qualify_exit_code(report, true), 1);

  // The 8-GPU records run at the pace of their slowest GPU: 0.85 x ~4300 GB/s per GPU.
  const CheckRow* copy8 = row_of(report, "hbm-copy", 8);
  ASSERT_NE(copy8, nullptr);
  EXPECT_EQ(copy8->verdict, Verdict::fail);
  EXPECT_NEAR(*copy8->ratio, 0.85 * 4300 / 4800, 0.01);
  EXPECT_EQ(row_of(report, "hbm-copy", 4)->verdict, Verdict::pass); // GPUs 0-3 only
  // 0.85 x 785 = 667 TFLOP/s clears the sustained BF16 floor (0.65 x 989 = 643): the floor is a
  // fault detector; a GPU 15 % behind its peers is named by the fleet rule below.
  EXPECT_EQ(row_of(report, "gemm-bf16", 8)->verdict, Verdict::pass);

  ASSERT_FALSE(report.fleet.outliers.empty());
  for (const auto& o : report.fleet.outliers) {
    EXPECT_EQ(o.kind, FleetKind::gpu);
    EXPECT_EQ(o.who.host, "hgx-h200-01");
    EXPECT_EQ(o.who.device, 5);
    EXPECT_EQ(o.who.uuid, uuid5);
    EXPECT_NEAR(o.ratio, 0.85, 0.01);
  }
  ASSERT_EQ(report.fleet.suspects.size(), 1u);
  EXPECT_EQ(report.fleet.suspects[0].who.device, 5);
  // copy, triad, read at two sizes, fma and four GEMM types: every 8-GPU compute record.
  EXPECT_EQ(report.fleet.suspects[0].outliers, 11);

  const std::string text = format_qualify_text(report);
  EXPECT_NE(text.find("host hgx-h200-01 GPU 5 (" + uuid5 + ")"), std::string::npos);
  EXPECT_NE(text.find("verdict: FAIL"), std::string::npos);
  EXPECT_NE(text.find("azurehpc-health-checks"), std::string::npos); // sources are carried
}

TEST(QualifyFixtures, MissingAndNoisyCasesAreInconclusive) {
  const QualifyReport report = qualify_fixture("h200_inconclusive.json", h200());
  EXPECT_EQ(report.overall, Verdict::inconclusive);
  EXPECT_EQ(qualify_exit_code(report, false), 4) << "INCONCLUSIVE has its own code, as check's";
  EXPECT_EQ(qualify_exit_code(report, true), 0);
  int inconclusive = 0;
  for (const auto& row : report.rows) {
    if (row.verdict != Verdict::inconclusive) {
      EXPECT_EQ(row.verdict, Verdict::pass) << row.check.id;
      continue;
    }
    ++inconclusive;
    if (row.check.id == "all-reduce-8gpu") {
      EXPECT_EQ(row.note,
                "no matching record (the case ran, not with these params, GPUs or nodes)");
    } else {
      EXPECT_EQ(row.check.id, "gemm-fp8");
      EXPECT_EQ(row.note.rfind("noisy: cv ", 0), 0u) << row.note; // its samples straddle the floor
    }
  }
  EXPECT_EQ(inconclusive, 5); // fp8 at 1, 2, 4, 8 GPUs and the missing all_reduce
}

// Measured, not made: `clusterbench run --backend cuda --suite compute,links,storage` on one
// H200 SXM (driver 580.159.04, CUDA 13.0), its GEMMs held at the 700 W power cap. What one GPU
// can show passes, the noisy TF32 GEMM too (even its slow tail clears the floor); the noisy FP16
// GEMM straddles its floor, and what needs more GPUs (NVLink P2P, the 8-GPU all_reduce) is
// missing: those are inconclusive, each with its reason.
TEST(QualifyFixtures, AMeasuredOneGpuH200RunPassesWhatOneGpuCanShow) {
  const std::string path = test::source_path(kFixtures + "h200_measured_1gpu.json");
  const ResultsFile results = load_results(path);
  EXPECT_EQ(results.run.at("backend"), "cuda");
  bool storage_read = false, power_capped_gemm = false;
  for (const auto& r : results.records) {
    if (r.suite == "storage" && r.case_name == "seq_read")
      storage_read = r.check == DataCheck::pass;
    if (r.case_name == "gemm" && r.extra.contains("throttled_ms"))
      power_capped_gemm = r.extra["throttled_ms"].value("power", 0.0) > 0;
  }
  EXPECT_TRUE(storage_read) << "seq_read on the cuda backend, verified";
  EXPECT_TRUE(power_capped_gemm) << "NVML's power-cap counter grew during a GEMM";
  const QualifyReport report = qualify(results, path, h200());
  std::vector<std::string> inconclusive;
  for (const auto& row : report.rows) {
    if (row.verdict == Verdict::inconclusive) {
      inconclusive.push_back(row.check.id);
      continue;
    }
    EXPECT_EQ(row.verdict, Verdict::pass) << row.check.id << " " << row.record << " " << row.note;
    if (row.check.id == "gemm-tf32") {
      EXPECT_EQ(row.note.rfind("noisy, but its slowest 5 % of samples clear the floor", 0), 0u)
          << row.note;
    }
  }
  EXPECT_EQ(inconclusive, (std::vector<std::string>{"gemm-fp16", "nvlink-p2p", "all-reduce-8gpu"}));
  for (const auto& row : report.rows) {
    if (row.check.id == "nvlink-p2p") {
      EXPECT_EQ(row.note.rfind("skipped: needs at least 2 GPUs on the node", 0), 0u) << row.note;
    }
    if (row.check.id == "gemm-fp16") {
      EXPECT_EQ(row.note.rfind("noisy: ", 0), 0u) << row.note;
    }
  }
  EXPECT_EQ(report.overall, Verdict::inconclusive);
}

TEST(QualifyFixtures, KnownGoodRunAsReference) {
  const std::string clean = test::source_path(kFixtures + "h200_clean.json");
  const Spec reference = load_spec_or_reference(clean, std::nullopt);
  EXPECT_TRUE(reference.from_reference);
  EXPECT_DOUBLE_EQ(reference.checks.front().fraction, kDefaultReferenceFraction);
  EXPECT_EQ(qualify_fixture("h200_clean.json", reference).overall, Verdict::pass);

  const QualifyReport slow = qualify_fixture("h200_slow_gpu.json", reference);
  EXPECT_EQ(slow.overall, Verdict::fail);
  int failed = 0;
  for (const auto& row : slow.rows) {
    if (row.verdict != Verdict::fail)
      continue;
    ++failed;
    EXPECT_EQ(row.check.suite, "compute");
    EXPECT_NE(row.record.find("gpus=8"), std::string::npos) << row.record;
  }
  EXPECT_EQ(failed, 11);
  // A looser bar lets the slow node through the checks; the fleet still names GPU 5.
  const QualifyReport loose =
      qualify_fixture("h200_slow_gpu.json", load_spec_or_reference(clean, 0.8));
  EXPECT_EQ(loose.failed, 1);
  EXPECT_EQ(loose.fleet_verdict, Verdict::fail);
  EXPECT_THROW(load_spec_or_reference(clean, 1.5), InputError);
}

TEST(SpecFit, ASpecOfAnotherBackendIsRefusedNamingBoth) {
  ResultsFile run = load_results(test::source_path(kFixtures + "h200_clean.json"));
  run.run["backend"] = "host";
  try {
    qualify(run, "cpu.json", h200());
    FAIL() << "judged a host run against an H200 data sheet";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--spec: spec 'h200-sxm' is of the cuda backend, and cpu.json was run "
                           "on the host backend (use --spec host-cpu, or a known-good run of the "
                           "same kind as --spec)");
  }
  // A reference run says its backend too.
  const Spec reference =
      load_spec_or_reference(test::source_path(kFixtures + "h200_clean.json"), std::nullopt);
  EXPECT_EQ(reference.backend, "cuda");
  EXPECT_EQ(reference.devices, (std::vector<std::string>{"NVIDIA H200"}));
  EXPECT_THROW(qualify(run, "cpu.json", reference), InputError);
  // A run that does not say its backend (an import of another tool's log) is judged.
  run.run.erase("backend");
  EXPECT_NO_THROW(qualify(run, "imported.json", h200()));
}

TEST(SpecFit, OtherPartsAreJudgedWithAWarningPerName) {
  ResultsFile run = load_results(test::source_path(kFixtures + "h200_clean.json"));
  EXPECT_TRUE(qualify(run, "r.json", h200()).spec_warnings.empty());
  // Two of the eight are H100s (a mixed batch): said once, with their count; judged all the same.
  run.run["hosts"][0]["devices"][3]["name"] = "NVIDIA H100 80GB HBM3";
  run.run["hosts"][0]["devices"][5]["name"] = "NVIDIA H100 80GB HBM3";
  const QualifyReport report = qualify(run, "r.json", h200());
  ASSERT_EQ(report.spec_warnings.size(), 1u);
  EXPECT_EQ(report.spec_warnings[0],
            "2 of the run's 8 devices are 'NVIDIA H100 80GB HBM3', not the parts spec 'h200-sxm' "
            "is for (H200): its figures are another part's");
  EXPECT_FALSE(report.rows.empty());
  EXPECT_EQ(qualify_to_json(report)["spec_warnings"].size(), 1u);
  EXPECT_NE(format_qualify_text(report).find("\nwarning: 2 of the run's 8 devices"),
            std::string::npos);
  // Compared without case; a spec that names no parts warns of none.
  run.run["hosts"][0]["devices"][3]["name"] = "nvidia h200";
  run.run["hosts"][0]["devices"][5]["name"] = "NVIDIA H200";
  EXPECT_TRUE(qualify(run, "r.json", h200()).spec_warnings.empty());
  Spec any = h200();
  any.devices.clear();
  run.run["hosts"][0]["devices"][3]["name"] = "Something Else";
  EXPECT_TRUE(qualify(run, "r.json", any).spec_warnings.empty());
  // Whole words: a GH200 is not an H200.
  run.run["hosts"][0]["devices"][3]["name"] = "NVIDIA GH200 480GB";
  ASSERT_EQ(qualify(run, "r.json", h200()).spec_warnings.size(), 1u);
  run.run["hosts"][0]["devices"][3]["name"] = "NVIDIA H200 NVL";
  EXPECT_TRUE(qualify(run, "r.json", h200()).spec_warnings.empty());
  // Eight names, then a count of the rest.
  for (int d = 0; d < 8; ++d)
    run.run["hosts"][0]["devices"][d]["name"] = "X" + std::to_string(d);
  run.run["hosts"][0]["devices"].push_back({{"name", "X8"}, {"index", 8}});
  run.run["hosts"][0]["devices"].push_back({{"name", "X9"}, {"index", 9}});
  const auto warnings = qualify(run, "r.json", h200()).spec_warnings;
  ASSERT_EQ(warnings.size(), 9u);
  EXPECT_EQ(warnings.back(), "and 2 more device names that are not H200");
}

TEST(Qualify, JudgesOneRecord) {
  Record r = test::gpu_record("compute", "copy", {100, 100});
  const Expectation e = copy_check(250, 0.8); // needs 200
  CheckRow row = judge_record(e, r, 3);
  EXPECT_EQ(row.verdict, Verdict::pass);
  EXPECT_DOUBLE_EQ(*row.measured, 200);
  EXPECT_DOUBLE_EQ(*row.ratio, 0.8);
  EXPECT_DOUBLE_EQ(row.threshold, 200);
  EXPECT_EQ(*row.record_index, 3u);

  r.samples_s = {1, 1};
  row = judge_record(e, r, 0);
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_EQ(row.note, "2 samples (fewer than 3)");

  r = test::gpu_record("compute", "copy", {100, 100});
  r.check = DataCheck::fail;
  EXPECT_EQ(judge_record(e, r, 0).verdict, Verdict::fail);

  r = test::gpu_record("compute", "copy", {100, 100});
  r.status = RecordStatus::failed;
  r.reason = "device error";
  row = judge_record(e, r, 0);
  EXPECT_EQ(row.verdict, Verdict::fail);
  EXPECT_EQ(row.note, "the case failed: device error");

  r.status = RecordStatus::skipped;
  r.reason = "no GPU";
  EXPECT_EQ(judge_record(e, r, 0).verdict, Verdict::inconclusive);
}

TEST(Qualify, ANoisyRecordDecidesOnlyWhereBothTailsFallOnOneSideOfTheFloor) {
  const Expectation e = copy_check(250, 0.8); // needs 200 GB/s; the record's median gives 200 x 1.2
  auto noisy = [](std::vector<double> samples) {
    Record r = test::gpu_record("compute", "copy", {120, 120});
    r.status = RecordStatus::noisy;
    r.reason = "spread 2.43% above the 1.00% target at the 2.00 s cap";
    r.samples_s = std::move(samples);
    r.stats = summarize(r.samples_s);
    return r;
  };
  // Clocks swinging +-5 % around a figure 20 % above the floor: even the slow tail clears it.
  CheckRow row = judge_record(e, noisy({0.95, 0.97, 1.0, 1.03, 1.05}), 0);
  EXPECT_EQ(row.verdict, Verdict::pass) << row.note;
  EXPECT_EQ(row.note, "noisy, but its slowest 5 % of samples clear the floor: spread 2.43% above "
                      "the 1.00% target at the 2.00 s cap");
  // Swinging +-40 %: the slow tail (1.4 s: 240 / 1.4 = 171 GB/s) is under the floor.
  row = judge_record(e, noisy({0.6, 0.8, 1.0, 1.2, 1.4}), 0);
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_EQ(row.note.rfind("noisy: spread", 0), 0u) << row.note;
  // Everything 40 % slower than the floor even at its fastest: a fail, noise or not.
  Record slow = noisy({1.95, 1.97, 2.0, 2.03, 2.05});
  slow.metrics["gbps"] = 120.0; // the figure at the 2.0 s median
  row = judge_record(e, slow, 0);
  EXPECT_EQ(row.verdict, Verdict::fail) << row.note;
  EXPECT_EQ(row.note.rfind("noisy, but its fastest 5 % of samples miss the floor", 0), 0u);
  // Too few samples to know the tails: still inconclusive.
  row = judge_record(e, noisy({0.99, 1.01}), 0);
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
}

TEST(Qualify, ANoisyLinkMatrixStaysInconclusive) {
  // A matrix record's samples are one median per pair: their spread is between links, not a
  // measure of how settled the slowest one is, so the tails rule does not apply.
  Record r = test::gpu_record("links", "p2p_matrix", {1, 1, 1});
  r.status = RecordStatus::noisy;
  r.metrics = {{"gbps", 372.0}};
  r.samples_s = {0.99, 1.0, 1.0, 1.0, 1.01, 1.0};
  r.stats = summarize(r.samples_s);
  r.extra["matrix"] = {{nullptr, 370, 371}, {372, nullptr, 373}, {369, 374, nullptr}};
  Expectation e = copy_check(450, 0.75); // needs 337.5 GB/s on the slowest link
  e.suite = "links";
  e.case_name = "p2p_matrix";
  e.measure = Measure::matrix_min;
  const CheckRow row = judge_record(e, r, 0);
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_EQ(row.note.rfind("noisy", 0), 0u) << row.note;
  r.status = RecordStatus::ok;
  EXPECT_EQ(judge_record(e, r, 0).verdict, Verdict::pass); // 369 GB/s once settled
}

TEST(Qualify, ANoisyLatencyRecordIsJudgedOnItsTailsToo) {
  Record r = test::gpu_record("links", "pt2pt_latency", {1, 1});
  r.metrics = {{"latency_us", 2.0}};
  r.status = RecordStatus::noisy;
  r.samples_s = {0.9, 0.95, 1.0, 1.05, 1.1};
  r.stats = summarize(r.samples_s);
  Expectation e = copy_check(2.0, 0.8); // at most 2.5 us
  e.suite = "links";
  e.case_name = "pt2pt_latency";
  e.metric = "latency_us";
  EXPECT_EQ(judge_record(e, r, 0).verdict, Verdict::pass); // 2.2 us at the slow tail
  r.metrics = {{"latency_us", 2.4}};                       // 2.64 us at the slow tail
  EXPECT_EQ(judge_record(e, r, 0).verdict, Verdict::inconclusive);
}

TEST(Qualify, LatencyChecksPassBelowTheLimit) {
  Record r = test::gpu_record("links", "pt2pt_latency", {1, 1});
  r.metrics = {{"latency_us", 2.4}};
  Expectation e = copy_check(2.0, 0.8);
  e.suite = "links";
  e.case_name = "pt2pt_latency";
  e.metric = "latency_us";
  const CheckRow row = judge_record(e, r, 0);
  EXPECT_DOUBLE_EQ(row.threshold, 2.5); // 2.0 / 0.8
  EXPECT_NEAR(*row.ratio, 2.0 / 2.4, 1e-12);
  EXPECT_EQ(row.verdict, Verdict::pass);
  r.metrics = {{"latency_us", 2.6}};
  EXPECT_EQ(judge_record(e, r, 0).verdict, Verdict::fail);
}

TEST(Qualify, SelectBestJudgesThePeakAndEachJudgesAll) {
  ResultsFile f;
  for (double gbps : {50.0, 95.0, 70.0})
    f.records.push_back(test::gpu_record("compute", "copy", {gbps}));
  Spec spec;
  spec.checks.push_back(copy_check(100, 0.9));
  QualifyReport best = qualify(f, "r.json", spec);
  ASSERT_EQ(best.rows.size(), 1u);
  EXPECT_EQ(best.rows[0].verdict, Verdict::pass);
  EXPECT_DOUBLE_EQ(*best.rows[0].measured, 95);
  EXPECT_EQ(best.rows[0].note, "best of 3 records");
  // No fleet (one GPU each) and the spec does not require one: the checks decide.
  EXPECT_FALSE(best.fleet_verdict.has_value());
  EXPECT_EQ(best.overall, Verdict::pass);

  spec.checks[0].select = Selection::each;
  QualifyReport each = qualify(f, "r.json", spec);
  ASSERT_EQ(each.rows.size(), 3u);
  EXPECT_EQ(each.failed, 2);
  EXPECT_EQ(each.overall, Verdict::fail);

  spec.fleet.required = true;
  spec.checks[0].select = Selection::best;
  EXPECT_EQ(qualify(f, "r.json", spec).overall, Verdict::inconclusive);
}

TEST(Qualify, DataChecksCountVerifiedRecords) {
  ResultsFile f;
  f.records.push_back(test::gpu_record("collectives", "all_reduce", {1}));
  f.records.push_back(test::gpu_record("collectives", "all_reduce", {1}));
  f.records.push_back(test::gpu_record("compute", "copy", {1}));
  f.records[2].check = DataCheck::skipped;
  Expectation data;
  data.id = "data";
  data.kind = CheckKind::data;
  Spec spec;
  spec.checks.push_back(data);
  QualifyReport report = qualify(f, "r.json", spec);
  EXPECT_EQ(report.rows[0].verdict, Verdict::pass);
  EXPECT_EQ(report.rows[0].note, "2 records verified");
  f.records[1].check = DataCheck::fail;
  report = qualify(f, "r.json", spec);
  EXPECT_EQ(report.rows[0].verdict, Verdict::fail);
  EXPECT_EQ(report.rows[0].note.rfind("1 of 2 records failed their data check", 0), 0u);
}

TEST(Qualify, NothingJudgedIsNotAPass) {
  EXPECT_EQ(qualify(ResultsFile{}, "r.json", Spec{}).overall, Verdict::inconclusive);
}

TEST(QualifyReport, JsonCarriesChecksOutliersAndSuspects) {
  const QualifyReport report = qualify_fixture("h200_slow_gpu.json", h200());
  const auto j = qualify_to_json(report);
  EXPECT_EQ(j["verdict"], "FAIL");
  EXPECT_EQ(j["spec"]["name"], "h200-sxm");
  EXPECT_EQ(j["checks"].size(), report.rows.size());
  const auto& check = j["checks"][0];
  for (const char* key : {"id", "record", "expected", "fraction", "threshold", "measured", "ratio",
                          "verdict", "source", "unit"}) {
    EXPECT_TRUE(check.contains(key)) << key;
  }
  EXPECT_EQ(j["fleet"]["verdict"], "FAIL");
  const auto& outlier = j["outliers"][0];
  EXPECT_EQ(outlier["host"], "hgx-h200-01");
  EXPECT_EQ(outlier["device"], 5);
  EXPECT_TRUE(outlier["uuid"].is_string());
  EXPECT_TRUE(outlier["value"].is_number());
  EXPECT_TRUE(outlier["fleet_median"].is_number());
  EXPECT_EQ(j["suspects"][0]["outliers"], 11);
  EXPECT_EQ(j["counts"]["fail"].get<int>(), report.failed);
}

TEST(QualifyReport, ThousandsOfOutliersPrintFortyLinesAndACount) {
  // 8,192 GPUs judged at every count flag thousands; the text shows 40 and counts the rest.
  const std::string path = test::source_path(kFixtures + "h200_slow_gpu.json");
  QualifyReport report = qualify(load_results(path), path, h200());
  ASSERT_FALSE(report.fleet.outliers.empty());
  ASSERT_FALSE(report.fleet.suspects.empty());
  while (report.fleet.outliers.size() < 1000)
    report.fleet.outliers.push_back(report.fleet.outliers.front());
  while (report.fleet.suspects.size() < 50)
    report.fleet.suspects.push_back(report.fleet.suspects.front());
  const std::string text = format_qualify_text(report);
  EXPECT_NE(text.find("... and 960 more outliers (qualify --json lists every one)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("... and 10 more suspects"), std::string::npos) << text;
  std::size_t lines = 0;
  for (std::size_t at = text.find("hgx-h200-01"); at != std::string::npos;
       at = text.find("hgx-h200-01", at + 1))
    ++lines;
  EXPECT_LE(lines, 100u);
}

TEST(QualifyReport, AStragglerIsNamedWithHostAndDeviceAndWarnsWithoutFailingTheFleet) {
  const std::string path = test::source_path(kFixtures + "h200_clean.json");
  ResultsFile results = load_results(path);
  std::size_t marked = results.records.size();
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    Record& r = results.records[i];
    if (r.suite == "collectives" && r.gpus == 8 && marked == results.records.size()) {
      r.straggler = StragglerRank{6, "hgx-h200-01", 6, 0.95, 70e-6, 100e-6};
      marked = i;
    }
  }
  ASSERT_LT(marked, results.records.size());
  const QualifyReport report = qualify(results, path, h200());
  EXPECT_EQ(report.fleet_verdict, Verdict::pass);
  EXPECT_EQ(report.overall, Verdict::pass);
  EXPECT_EQ(qualify_exit_code(report, false), 0);
  ASSERT_EQ(report.fleet.outliers.size(), 1u);
  EXPECT_EQ(report.fleet.outliers[0].record_index, marked);

  const std::string text = format_qualify_text(report);
  EXPECT_NE(text.find("0 outliers (evidence), 1 straggler (warn)"), std::string::npos) << text;
  EXPECT_NE(text.find("  rank 6 on host hgx-h200-01 GPU 6 ("), std::string::npos) << text;
  EXPECT_NE(text.find(": straggler, own time 70 us, the others' median 100 us (0.70x; the "
                      "shortest in 95% of samples, 8 ranks) in collectives/"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[warns]"), std::string::npos);
  EXPECT_EQ(text.find("suspects ("), std::string::npos); // a straggler names no suspect
  EXPECT_NE(text.find("culprits: none ("), std::string::npos) << text;
  EXPECT_NE(text.find("verdict: PASS ("), std::string::npos);
  EXPECT_NE(text.find("; 1 straggler named (warn))"), std::string::npos) << text;

  const auto j = qualify_to_json(report);
  EXPECT_EQ(j["verdict"], "PASS");
  EXPECT_EQ(j["fleet"]["warnings"], 1);
  const auto& o = j["outliers"][0];
  EXPECT_EQ(o["kind"], "straggler");
  EXPECT_EQ(o["severity"], "warn");
  EXPECT_EQ(o["rank"], 6);
  EXPECT_EQ(o["host"], "hgx-h200-01");
  EXPECT_EQ(o["device"], 6);
  EXPECT_EQ(o["label"].get<std::string>().rfind("rank 6 on host hgx-h200-01 GPU 6 (GPU-", 0), 0u);
  EXPECT_DOUBLE_EQ(o["shortest_share"].get<double>(), 0.95);
  EXPECT_DOUBLE_EQ(o["ratio"].get<double>(), 0.7);
  EXPECT_EQ(o["rules"], nlohmann::json::array({"straggler"}));
  EXPECT_TRUE(j["suspects"].empty());
}

namespace {
// Qualify on a pair_bw record across 6 one-rank nodes n1..n6 whose second pass named nothing
// and left `note` (a field of second_pass) to warn of.
QualifyReport qualify_second_pass_note(const std::string& field, const nlohmann::json& note) {
  Record r = test::gpu_record("links", "pair_bw", std::vector<double>(6, 0.05),
                              {"n1", "n2", "n3", "n4", "n5", "n6"});
  r.extra["matrix"] = test::uniform_matrix(6, 0.05);
  r.extra["matrix_metric"] = "gbps";
  r.extra["second_pass"] = {
      {"metric", "gbps"}, {"reference", 0.05}, {"verdicts", nlohmann::json::array()}};
  r.extra["second_pass"][field] = note;
  ResultsFile results;
  results.records.push_back(r);
  return qualify(results, "r.json", Spec{});
}
} // namespace

TEST(QualifyReport, ATierThatIsNotUniformWarnsInTextAndJsonAndStillPasses) {
  // 3 pairs beat the typical pair.
  const QualifyReport report = qualify_second_pass_note(
      "better_than_reference", {{"pairs", 3}, {"nodes", {0, 1, 3}}, {"hosts", {"n1", "n2", "n4"}}});
  EXPECT_EQ(report.fleet_verdict, Verdict::pass);
  EXPECT_EQ(qualify_exit_code(report, false), 0);
  const std::string text = format_qualify_text(report);
  EXPECT_NE(text.find("0 outliers (evidence), 1 note (warn)"), std::string::npos) << text;
  EXPECT_NE(text.find("tier not uniform: 3 pairs among 3 of 6 nodes (n1, n2, n4) beat the typical "
                      "pair"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; 1 note (warn))"), std::string::npos) << text;
  const auto j = qualify_to_json(report);
  EXPECT_EQ(j["fleet"]["warnings"], 0); // stragglers; the notes are counted apart
  ASSERT_EQ(j["fleet"]["notes"].size(), 1u);
  EXPECT_EQ(j["fleet"]["notes"][0]["kind"], "not_uniform");
  EXPECT_EQ(j["fleet"]["notes"][0]["severity"], "warn");
  EXPECT_EQ(j["fleet"]["notes"][0]["hosts"], nlohmann::json({"n1", "n2", "n4"}));
  EXPECT_EQ(j["fleet"]["notes"][0]["pairs"], 3);
}

TEST(QualifyReport, ATierSplitInGroupsWarnsInTextAndJsonAndStillPasses) {
  // n5 and n6 slow with every known-good partner, fast with each other.
  const QualifyReport report = qualify_second_pass_note(
      "split", {{"groups", {{{"nodes", {4, 5}}, {"hosts", {"n5", "n6"}}}}}, {"pairs", 8}});
  EXPECT_EQ(report.fleet_verdict, Verdict::pass);
  EXPECT_EQ(qualify_exit_code(report, false), 0);
  const std::string text = format_qualify_text(report);
  EXPECT_NE(text.find("tier split: 2 of 6 nodes (n5, n6), in 1 group, are slow with every "
                      "known-good partner but fast with one another (8 suspect pairs across)"),
            std::string::npos)
      << text;
  const auto j = qualify_to_json(report);
  ASSERT_EQ(j["fleet"]["notes"].size(), 1u);
  EXPECT_EQ(j["fleet"]["notes"][0]["kind"], "split");
  EXPECT_EQ(j["fleet"]["notes"][0]["groups"], 1);
  EXPECT_EQ(j["fleet"]["notes"][0]["hosts"], nlohmann::json({"n5", "n6"}));
  EXPECT_EQ(j["fleet"]["notes"][0]["pairs"], 8);
}

TEST(QualifyReport, AStragglerBesideASlowGpuLeavesTheFleetFailingOnTheGpu) {
  const std::string path = test::source_path(kFixtures + "h200_slow_gpu.json");
  ResultsFile results = load_results(path);
  for (Record& r : results.records) {
    if (r.suite == "collectives" && r.gpus == 8)
      r.straggler = StragglerRank{2, "hgx-h200-01", 2, 0.9, 70e-6, 100e-6};
  }
  const QualifyReport report = qualify(results, path, h200());
  EXPECT_EQ(report.fleet_verdict, Verdict::fail);
  EXPECT_GT(report.fleet.failing(), 0u);
  EXPECT_GT(report.fleet.warnings(), 0u);
  // Outliers are evidence: every one warns; the culprit, GPU 5, fails the fleet.
  const auto j = qualify_to_json(report);
  for (const auto& o : j["outliers"])
    EXPECT_EQ(o["severity"], "warn") << o.dump();
  ASSERT_EQ(j["culprits"].size(), 1u) << j["culprits"].dump();
  EXPECT_EQ(j["culprits"][0]["kind"], "gpu");
  EXPECT_EQ(j["culprits"][0]["gpu"], 5);
  EXPECT_EQ(j["culprits"][0]["host"], "hgx-h200-01");
  // The straggler on the same host supports it, and names nothing of its own.
  bool straggler_shown = false;
  for (const auto& record : j["culprits"][0]["records"])
    straggler_shown |= record.get<std::string>().find("(straggler)") != std::string::npos;
  EXPECT_TRUE(straggler_shown) << j["culprits"][0].dump();
  ASSERT_EQ(report.fleet.suspects.size(), 1u);
  EXPECT_EQ(report.fleet.suspects[0].who.device, 5);
}

// A check that matches nothing says why: a misspelt case is shown beside the cases the file has,
// a suite the run left out is named.
TEST(QualifyFixtures, ACheckThatMatchesNothingSaysWhy) {
  Spec spec = h200();
  Expectation typo;
  for (const auto& check : spec.checks) {
    if (check.suite == "compute" && check.case_name == "copy")
      typo = check;
  }
  ASSERT_FALSE(typo.id.empty());
  typo.id = "typo";
  typo.case_name = "cpy";
  Expectation no_suite = typo;
  no_suite.id = "no-suite";
  no_suite.suite = "storage";
  no_suite.case_name = "sequential_read";
  no_suite.metric = "gbps";
  spec.checks = {typo, no_suite};
  const QualifyReport report = qualify_fixture("h200_clean.json", spec);
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].verdict, Verdict::inconclusive);
  EXPECT_NE(report.rows[0].note.find("case not run; the file's compute cases: copy, "),
            std::string::npos)
      << report.rows[0].note;
  EXPECT_EQ(report.rows[1].note,
            "no matching record (no storage record in the file: suite not run)");
}
