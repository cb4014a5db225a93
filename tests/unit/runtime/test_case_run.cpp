// The state a case runs an instance with (runtime/case_run.hpp): skip, measure and check fill the
// record the sweep made, next_record opens another with the same identity, and a record the case
// never ended is written as failed, not as a measurement.
#include <gtest/gtest.h>

#include <thread>

#include "runtime/case.hpp"
#include "runtime/host_backend.hpp"

namespace cb {
namespace {

// One rank's context over a world of `comm` (thread ranks), on one node, with few fast samples.
struct OneNode {
  explicit OneNode(int ranks = 1)
      : worlds(Communicator::threads(ranks)),
        layout(make_layout(std::vector<int>(static_cast<std::size_t>(ranks), 0),
                           std::vector<std::string>(static_cast<std::size_t>(ranks), "n1"))),
        devices(static_cast<std::size_t>(ranks), nlohmann::json{{"index", 0}}) {
    config.backend_kind = BackendKind::host;
    config.measure.min_samples = 3;
    config.measure.max_samples = 3;
    config.measure.min_time_s = 0;
    config.measure.batch_time_s = 0; // one operation per sample
    config.measure.settle = false;
    for (int r = 0; r < ranks; ++r)
      members.push_back(r);
  }
  CaseContext context(Backend& backend, int rank) const {
    return CaseContext{backend, worlds[static_cast<std::size_t>(rank)],         config, layout,
                       members, Placement{1, static_cast<int>(members.size())}, devices};
  }
  std::vector<Communicator> worlds;
  NodeLayout layout;
  std::vector<nlohmann::json> devices;
  std::vector<int> members;
  RunConfig config;
};

// The record as the sweep makes it, identity filled in.
Record made_record() {
  Record r;
  r.suite = "compute";
  r.case_name = "under_test";
  r.params = {{"bytes", 8}};
  r.gpus = 1;
  return r;
}

TEST(CaseRun, SkipMarksTheRecordSkippedAndItIsWrittenSo) {
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  CaseRun run(ctx, made_record());
  run.skip("the host has no such kernel");
  const std::vector<Record> records = run.take_records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].status, RecordStatus::skipped);
  EXPECT_EQ(records[0].check, DataCheck::skipped);
  EXPECT_EQ(records[0].reason, "the host has no such kernel");
  EXPECT_EQ(records[0].params, (nlohmann::json{{"bytes", 8}}));
}

TEST(CaseRun, MeasureFillsSamplesStatsMetricsAndPerRankFigures) {
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  CaseRun run(ctx, made_record());
  int calls = 0;
  run.measure([&] { ++calls; },
              [](double seconds, bool whole) {
                return nlohmann::json{{"time_us", seconds * 1e6}, {"whole", whole}};
              });
  const std::vector<Record> records = run.take_records();
  ASSERT_EQ(records.size(), 1u);
  const Record& r = records[0];
  EXPECT_NE(r.status, RecordStatus::failed) << r.reason;
  EXPECT_EQ(r.samples_s.size(), 3u);
  EXPECT_GE(calls, 3); // a warm-up batch beside the samples
  EXPECT_GT(r.stats.median, 0.0);
  EXPECT_DOUBLE_EQ(r.metrics.at("time_us").get<double>(), r.stats.median * 1e6);
  EXPECT_EQ(r.metrics.at("whole"), true);
  ASSERT_EQ(r.per_rank.size(), 1u);
  EXPECT_EQ(r.per_rank[0].at("host"), "n1");
  EXPECT_TRUE(r.extra.contains("batch"));
}

TEST(CaseRun, MeasureTimedTakesTheCasesOwnSeconds) {
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  CaseRun run(ctx, made_record());
  run.measure_timed([](int k) { return k * 2e-3; },
                    [](double seconds, bool) {
                      return nlohmann::json{{"time_us", seconds * 1e6}};
                    });
  const Record r = run.take_records().at(0);
  ASSERT_EQ(r.samples_s.size(), 3u);
  EXPECT_NEAR(r.stats.median, 2e-3, 1e-12);
  EXPECT_NEAR(r.metrics.at("time_us").get<double>(), 2000.0, 1e-6);
}

TEST(CaseRun, CheckPassesOrFailsWithItsReasonBeforeTheRecordsOwn) {
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  CaseRun run(ctx, made_record());
  run.record().reason = "spread 3% above the 1% target";
  run.check(false, "0 wrong elements");
  EXPECT_EQ(run.record().check, DataCheck::pass);
  EXPECT_EQ(run.record().reason, "spread 3% above the 1% target");
  run.check(true, "3 wrong elements after all_reduce");
  EXPECT_EQ(run.record().check, DataCheck::fail);
  EXPECT_EQ(run.record().reason,
            "3 wrong elements after all_reduce; spread 3% above the 1% target");

  CaseRun quiet(ctx, made_record());
  quiet.check(true, ""); // the case says why itself
  EXPECT_EQ(quiet.record().check, DataCheck::fail);
  EXPECT_EQ(quiet.record().reason, "");
}

TEST(CaseRun, NextRecordOpensOneWithTheSweepsIdentityAndKeepsTheOrder) {
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  CaseRun run(ctx, made_record());
  run.record().params["in_place"] = false;
  run.skip("first");
  run.next_record();
  EXPECT_EQ(run.record().params, (nlohmann::json{{"bytes", 8}})); // not the first one's edits
  EXPECT_EQ(run.record().status, RecordStatus::ok);
  EXPECT_EQ(run.record().case_name, "under_test");
  EXPECT_EQ(run.record().gpus, 1);
  run.record().params["in_place"] = true;
  run.skip("second");
  const std::vector<Record> records = run.take_records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].reason, "first");
  EXPECT_EQ(records[0].params.at("in_place"), false);
  EXPECT_EQ(records[1].reason, "second");
  EXPECT_EQ(records[1].params.at("in_place"), true);
}

TEST(CaseRun, ARecordNeitherMeasuredNorSkippedIsWrittenFailed) {
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  CaseRun run(ctx, made_record());
  run.record().metrics["gbps"] = 12.5; // a figure with nothing measured behind it
  run.check(false, "");                // a check alone does not end a record
  const Record r = run.take_records().at(0);
  EXPECT_EQ(r.status, RecordStatus::failed);
  EXPECT_EQ(r.check, DataCheck::skipped);
  EXPECT_EQ(r.reason, "compute/under_test ended the record without measuring or skipping it");
}

TEST(CaseRun, RecordsEndedByTheCaseItselfAreKeptAsTheCaseLeftThem) {
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  // Timed in its own way (a pair matrix): samples filled by the case.
  CaseRun own_timing(ctx, made_record());
  own_timing.record().samples_s = {1e-3, 2e-3};
  EXPECT_EQ(own_timing.take_records().at(0).status, RecordStatus::ok);
  // Failed by the case (a storage set-up that could not open its file).
  CaseRun failed(ctx, made_record());
  failed.record().status = RecordStatus::failed;
  failed.record().reason = "no room";
  const Record r = failed.take_records().at(0);
  EXPECT_EQ(r.status, RecordStatus::failed);
  EXPECT_EQ(r.reason, "no room");
}

TEST(CaseRun, OnlyRankZeroJudgesTheRecordsItKeeps) {
  OneNode node(2);
  std::vector<Record> rank_one;
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < 2; ++r) {
      threads.emplace_back([&, r] {
        HostBackend backend(r);
        const CaseContext ctx = node.context(backend, r);
        CaseRun run(ctx, made_record());
        auto records = run.take_records();
        if (r == 1)
          rank_one = std::move(records);
      });
    }
  }
  ASSERT_EQ(rank_one.size(), 1u);
  EXPECT_EQ(rank_one[0].status, RecordStatus::ok); // never written; left as the case left it
}

TEST(CaseRun, RunInstanceMakesTheRecordWithItsIdentity) {
  class Skips : public BenchmarkCase {
  public:
    Skips() : BenchmarkCase("links", "skips", CaseTraits{.min_gpus = 2}) {}
    void run(CaseRun& run, const nlohmann::json& params) override {
      run.skip("asked " + params.dump());
    }
  };
  OneNode node;
  HostBackend backend(0);
  const CaseContext ctx = node.context(backend, 0);
  Skips kase;
  EXPECT_EQ(kase.suite(), "links");
  EXPECT_EQ(kase.name(), "skips");
  EXPECT_EQ(kase.min_gpus(), 2);
  EXPECT_FALSE(kase.uses_collectives());
  const std::vector<Record> records = run_instance(kase, ctx, {{"bytes", 4}});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].suite, "links");
  EXPECT_EQ(records[0].case_name, "skips");
  EXPECT_EQ(records[0].gpus, 1);
  EXPECT_EQ(records[0].tier, "intra");
  EXPECT_EQ(records[0].reason, R"(asked {"bytes":4})");
}

} // namespace
} // namespace cb
