// collectives/communicator_init on ranks that are threads (no MPI): a backend whose communicators
// take a planted time to make, the first one in the process longer, shows that the record is the
// slowest rank's creation, the first kept apart as cold_time_us, and the destruction left out.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "runtime/case.hpp"
#include "runtime/console_printer.hpp"
#include "runtime/host_backend.hpp"

namespace cb {
namespace {

constexpr int kRanks = 4;

// Sleeps while a communicator is made (longer on the slow rank, and the first time) and while it
// is destroyed; the communicator itself is the default one, a split of the thread communicator.
class SlowInitBackend : public HostBackend {
public:
  SlowInitBackend(int rank, int slow_rank) : HostBackend(rank), slow_(rank == slow_rank) {}
  std::string why_no_collectives(const Communicator&) const override { return ""; }
  std::unique_ptr<CommunicatorHandle> new_communicator(const Communicator& comm) override {
    const double s = (made_++ == 0 ? 0.030 : 0.0) + (slow_ ? 0.010 : 0.002);
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
    return std::make_unique<SlowDestroy>(HostBackend::new_communicator(comm));
  }

private:
  // Destroying takes 50 ms: never in the figures.
  class SlowDestroy : public CommunicatorHandle {
  public:
    explicit SlowDestroy(std::unique_ptr<CommunicatorHandle> inner) : inner_(std::move(inner)) {}
    ~SlowDestroy() override { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

  private:
    std::unique_ptr<CommunicatorHandle> inner_;
  };
  bool slow_;
  int made_ = 0;
};

std::unique_ptr<BenchmarkCase> make_init_case() {
  for (auto& c : CaseRegistry::instance().create_all()) {
    if (c->suite() == "collectives" && c->name() == "communicator_init")
      return std::move(c);
  }
  throw std::runtime_error("no collectives/communicator_init case registered");
}

TEST(CommunicatorInit, IsRegisteredWithoutAxesAndOneInstance) {
  const auto kase = make_init_case();
  EXPECT_TRUE(kase->axes().empty());
  EXPECT_EQ(kase->instances(RunConfig{}).size(), 1u);
}

TEST(CommunicatorInit, TheHostBackendOnThreadsSaysWhyNot) {
  std::vector<Communicator> worlds = Communicator::threads(1);
  HostBackend backend(0);
  EXPECT_NE(
      make_init_case()->why_not_on(backend, BackendKind::host, worlds[0]).find("--single-process"),
      std::string::npos);
}

TEST(CommunicatorInit, SlowestRankColdApartDestructionLeftOut) {
  std::vector<Communicator> worlds = Communicator::threads(kRanks);
  std::vector<int> node_keys, members;
  std::vector<std::string> hosts;
  std::vector<nlohmann::json> devices;
  for (int r = 0; r < kRanks; ++r) {
    node_keys.push_back(0);
    hosts.push_back("n1");
    devices.push_back({{"index", r}});
    members.push_back(r);
  }
  const NodeLayout layout = make_layout(node_keys, hosts);
  RunConfig config;
  config.backend_kind = BackendKind::host;
  config.measure.batch_time_s = 0; // one creation per sample
  config.measure.min_samples = 6;
  config.measure.max_samples = 6;
  config.measure.min_time_s = 0;
  config.measure.max_time_s = 60;
  config.measure.settle = false;
  std::vector<Record> out;
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < kRanks; ++r) {
      threads.emplace_back([&, r] {
        SlowInitBackend backend(r, 2);
        const CaseContext ctx{backend, worlds[static_cast<std::size_t>(r)],
                              config,  layout,
                              members, Placement{1, kRanks},
                              devices};
        const auto kase = make_init_case();
        auto records = run_instance(*kase, ctx, kase->instances(config).at(0));
        if (r == 0)
          out = std::move(records);
      });
    }
  }
  ASSERT_EQ(out.size(), 1u);
  const Record& r = out[0];
  EXPECT_EQ(r.suite, "collectives");
  EXPECT_EQ(r.case_name, "communicator_init");
  EXPECT_EQ(r.extra.value("calls", ""), "MPI_Comm_split");
  ASSERT_EQ(r.samples_s.size(), 6u);
  // Rank 2's 10 ms, not rank 0's 2 ms, nor the 50 ms destruction.
  const double steady = r.metrics.at("time_us").get<double>() * 1e-6;
  EXPECT_GE(steady, 0.010);
  EXPECT_LT(steady, 0.035);
  // The first creation: 30 ms more, measured once, before the warm-up.
  const double cold = r.metrics.at("cold_time_us").get<double>() * 1e-6;
  EXPECT_GE(cold, 0.040);
  EXPECT_LT(cold, 0.075);
  ASSERT_EQ(r.per_rank.size(), static_cast<std::size_t>(kRanks));
}

TEST(CommunicatorInit, ConsoleRowsAreNotTheCollectivesSizeTable) {
  const auto printer = PrinterRegistry::instance().create("collectives");
  std::ostringstream out;
  TableHeading heading{"collectives", "communicator_init", "host", "intra", 2, 1};
  printer->heading(out, heading);
  Record r;
  r.suite = "collectives";
  r.case_name = "communicator_init";
  r.status = RecordStatus::ok;
  r.metrics = {{"time_us", 42.0}, {"cold_time_us", 99.0}};
  printer->rows(out, {r});
  EXPECT_EQ(out.str().find("out-of-place"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("cold_time_us"), std::string::npos) << out.str();
}

} // namespace
} // namespace cb
