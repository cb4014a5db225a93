// The sweep itself, driven with ranks that are threads (no MPI): which counts a case runs at, and
// what the results file says when a case fails on the device.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "results/results_io.hpp"
#include "runtime/host_backend.hpp"
#include "runtime/sweep.hpp"

namespace cb {
namespace {

// A record ended as a case that times in its own way ends it: one sample, its data checked.
void end_with_one_sample(CaseRun& run) {
  run.record().samples_s = {1e-3};
  run.record().stats = summarize(run.record().samples_s);
  run.check(false, "");
}

// Two instances: the first ends its record without the engine; the second throws the error a
// failing GPU would (on every rank, as a sticky CUDA error would).
class FailsOnSecondInstance : public BenchmarkCase {
public:
  FailsOnSecondInstance() : BenchmarkCase("compute", "fails") {}
  std::vector<nlohmann::json> instances(const RunConfig&) const override {
    return {{{"step", 1}}, {{"step", 2}}};
  }
  void run(CaseRun& run, const nlohmann::json& params) override {
    run.context().comm.barrier();
    if (params.at("step") == 2)
      CB_RUN_ERROR("an illegal memory access was encountered");
    end_with_one_sample(run);
  }
};

// Rank 1 alone hits a device error in the second instance while rank 0 waits for it.
class FailsOnRankOne : public FailsOnSecondInstance {
public:
  void run(CaseRun& run, const nlohmann::json& params) override {
    if (params.at("step") == 2 && run.context().comm.rank() == 1)
      CB_RUN_ERROR("an illegal memory access was encountered");
    FailsOnSecondInstance::run(run, params);
  }
};

// A case that forgets to end its record: neither measured nor skipped nor failed.
class EndsNothing : public BenchmarkCase {
public:
  EndsNothing() : BenchmarkCase("compute", "ends_nothing") {}
  std::vector<nlohmann::json> instances(const RunConfig&) const override { return {{{"step", 1}}}; }
  void run(CaseRun& run, const nlohmann::json&) override { run.record().extra["tried"] = true; }
};

struct Outcome {
  std::string error;
  std::vector<Record> records;
};

template <typename Case> Outcome sweep_on_threads(int ranks) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("cb-sweep-test-" + std::to_string(::getpid()) + ".json");
  std::vector<Communicator> worlds = Communicator::threads(ranks);
  const NodeLayout layout =
      make_layout(std::vector<int>(static_cast<std::size_t>(ranks), 0),
                  std::vector<std::string>(static_cast<std::size_t>(ranks), "node"));
  const std::vector<nlohmann::json> devices(static_cast<std::size_t>(ranks),
                                            nlohmann::json::object());
  RunConfig config;
  config.backend_kind = BackendKind::host;
  Outcome out;
  {
    IncrementalResultsWriter writer(path.string(), {{"id", "t"},
                                                    {"started", "2026-01-01T00:00:00Z"},
                                                    {"tool_version", "test"},
                                                    {"backend", "host"}});
    std::vector<std::jthread> threads;
    for (int r = 0; r < ranks; ++r) {
      threads.emplace_back([&, r] {
        HostBackend backend(r);
        std::vector<std::unique_ptr<BenchmarkCase>> cases;
        cases.push_back(std::make_unique<Case>());
        SweepRunner runner(backend, worlds[static_cast<std::size_t>(r)], config, layout, devices,
                           {ranks});
        std::ostringstream table;
        // As `run` drives a rank: an error ends the job (the other ranks are woken to stop).
        try {
          try {
            runner.run(cases, r == 0 ? &writer : nullptr, r == 0 ? &table : nullptr);
          } catch (const RankStopped&) {
            throw;
          } catch (const Error& e) {
            worlds[static_cast<std::size_t>(r)].abort(3, e.what());
          }
        } catch (const RankStopped& e) {
          if (r == 0)
            out.error = e.what();
        }
      });
    }
  }
  out.records = load_results(path.string()).records;
  std::filesystem::remove(path);
  return out;
}

TEST(SweepRunner, ADeviceErrorEndsTheRunWithAFailedRecordCarryingItsMessage) {
  const Outcome out = sweep_on_threads<FailsOnSecondInstance>(2);
  EXPECT_NE(out.error.find("illegal memory access"), std::string::npos) << out.error;
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_EQ(out.records[0].status, RecordStatus::ok); // the finished record is kept
  EXPECT_EQ(out.records[1].status, RecordStatus::failed);
  EXPECT_EQ(out.records[1].check, DataCheck::skipped);
  EXPECT_EQ(out.records[1].params.at("step"), 2);
  EXPECT_EQ(out.records[1].gpus, 2);
  EXPECT_NE(out.records[1].reason.find("illegal memory access"), std::string::npos);
}

TEST(SweepRunner, ARecordTheCaseNeverEndedIsWrittenFailedNotAsAMeasurement) {
  const Outcome out = sweep_on_threads<EndsNothing>(2);
  EXPECT_TRUE(out.error.empty()) << out.error;
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_EQ(out.records[0].status, RecordStatus::failed);
  EXPECT_EQ(out.records[0].check, DataCheck::skipped);
  EXPECT_EQ(out.records[0].extra.value("tried", false), true); // what the case filled is kept
  EXPECT_NE(out.records[0].reason.find("compute/ends_nothing ended the record without measuring"),
            std::string::npos)
      << out.records[0].reason;
}

TEST(SweepRunner, AnErrorOnAnotherRankIsTheFailedRecordsReasonOnRankZero) {
  const Outcome out = sweep_on_threads<FailsOnRankOne>(2);
  EXPECT_EQ(out.error.rfind("rank 1 failed: an illegal memory access", 0), 0u) << out.error;
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_EQ(out.records[0].status, RecordStatus::ok);
  EXPECT_EQ(out.records[1].status, RecordStatus::failed);
  EXPECT_EQ(out.records[1].reason.rfind("rank 1 failed: an illegal memory access", 0), 0u)
      << out.records[1].reason;
}

// A count's communicators go once its last case has run, in one order on every rank: here the
// 1-GPU count after the first case (the second runs at the largest count only), the 2-GPU count
// after the second.
class OkCase : public BenchmarkCase {
public:
  explicit OkCase(std::string name, bool largest_only)
      : BenchmarkCase("compute", std::move(name), CaseTraits{.largest_count_only = largest_only}) {}
  std::vector<nlohmann::json> instances(const RunConfig&) const override { return {{{"step", 1}}}; }
  void run(CaseRun& run, const nlohmann::json&) override { end_with_one_sample(run); }
};

class ReleaseRecorder : public HostBackend {
public:
  using HostBackend::HostBackend;
  void release_collectives(const Communicator& group) override { released.push_back(group.size()); }
  std::vector<int> released; // group sizes, in the order released
};

TEST(SweepRunner, ACountsCommunicatorsAreReleasedAfterItsLastCase) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("cb-sweep-release-" + std::to_string(::getpid()) + ".json");
  std::vector<Communicator> worlds = Communicator::threads(2);
  const NodeLayout layout = make_layout({0, 0}, {"node", "node"});
  const std::vector<nlohmann::json> devices(2, nlohmann::json::object());
  RunConfig config;
  config.backend_kind = BackendKind::host;
  std::vector<std::vector<int>> released(2);
  {
    IncrementalResultsWriter writer(path.string(), {{"id", "t"},
                                                    {"started", "2026-01-01T00:00:00Z"},
                                                    {"tool_version", "test"},
                                                    {"backend", "host"}});
    std::vector<std::jthread> threads;
    for (int r = 0; r < 2; ++r) {
      threads.emplace_back([&, r] {
        ReleaseRecorder backend(r);
        std::vector<std::unique_ptr<BenchmarkCase>> cases;
        cases.push_back(std::make_unique<OkCase>("every_count", false));
        cases.push_back(std::make_unique<OkCase>("largest_only", true));
        SweepRunner runner(backend, worlds[static_cast<std::size_t>(r)], config, layout, devices,
                           {1, 2});
        std::ostringstream table;
        runner.run(cases, r == 0 ? &writer : nullptr, r == 0 ? &table : nullptr);
        released[static_cast<std::size_t>(r)] = backend.released;
      });
    }
  }
  std::filesystem::remove(path);
  EXPECT_EQ(released[0], (std::vector<int>{1, 2})); // rank 0 is in both counts
  EXPECT_EQ(released[1], std::vector<int>{2});      // rank 1 only in the 2-GPU count
}

} // namespace
} // namespace cb
