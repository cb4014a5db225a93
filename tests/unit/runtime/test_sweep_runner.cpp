// The sweep itself, driven with ranks that are threads (no MPI): which counts a case runs at, and
// what the results file says when a case fails on the device.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "results/results_io.hpp"
#include "runtime/host_backend.hpp"
#include "runtime/sweep.hpp"

namespace cb {
namespace {

// Two instances: the first measures nothing but returns an ok record; the second throws the
// error a failing GPU would (on every rank, as a sticky CUDA error would).
class FailsOnSecondInstance : public BenchmarkCase {
public:
  std::string suite() const override { return "compute"; }
  std::string name() const override { return "fails"; }
  std::vector<nlohmann::json> instances(const RunConfig&) const override {
    return {{{"step", 1}}, {{"step", 2}}};
  }
  std::vector<Record> run(const CaseContext& ctx, const nlohmann::json& params) override {
    ctx.comm.barrier();
    if (params.at("step") == 2)
      CB_RUN_ERROR("an illegal memory access was encountered");
    Record r = ctx.new_record(suite(), name(), params);
    r.status = RecordStatus::ok;
    r.check = DataCheck::pass;
    return {r};
  }
};

// Rank 1 alone hits a device error in the second instance while rank 0 waits for it.
class FailsOnRankOne : public FailsOnSecondInstance {
public:
  std::vector<Record> run(const CaseContext& ctx, const nlohmann::json& params) override {
    if (params.at("step") == 2 && ctx.comm.rank() == 1)
      CB_RUN_ERROR("an illegal memory access was encountered");
    return FailsOnSecondInstance::run(ctx, params);
  }
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
  config.backend = "host";
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

TEST(SweepRunner, AnErrorOnAnotherRankIsTheFailedRecordsReasonOnRankZero) {
  const Outcome out = sweep_on_threads<FailsOnRankOne>(2);
  EXPECT_EQ(out.error.rfind("rank 1 failed: an illegal memory access", 0), 0u) << out.error;
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_EQ(out.records[0].status, RecordStatus::ok);
  EXPECT_EQ(out.records[1].status, RecordStatus::failed);
  EXPECT_EQ(out.records[1].reason.rfind("rank 1 failed: an illegal memory access", 0), 0u)
      << out.records[1].reason;
}

} // namespace
} // namespace cb
