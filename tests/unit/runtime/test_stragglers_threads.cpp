// Stragglers, end to end on ranks that are threads (no MPI): the real all_reduce case runs on six
// ranks on three "hosts" through the engine, its collective an element-wise sum over the thread
// communicator. One rank planted late before every collective is named with its rank, host and
// device; ranks that are late at random, equally, name nobody, and so does a broadcast. The
// record keeps every rank's median, p99 and shortest share, and raw samples for three ranks only.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>

#include "collectives/collective_options.hpp"
#include "core/error.hpp"
#include "results/results_io.hpp"
#include "runtime/case.hpp"
#include "runtime/host_backend.hpp"
#include "runtime/straggler.hpp"

namespace cb {
namespace {

// all_reduce of doubles with op sum, each element with the thread communicator's own reduction,
// and broadcast from rank 0 with its broadcast: real collectives of thread ranks (each exchange
// waits for every rank), slow but exact.
class ThreadCollectives : public CollectiveComm {
public:
  explicit ThreadCollectives(const Communicator& comm) : comm_(comm) {}
  std::string why_unsupported(Collective c, DType t, ReduceOp op, bool) const override {
    const bool ok =
        (c == Collective::all_reduce && op == ReduceOp::sum) || c == Collective::broadcast;
    return ok && t == DType::f64 ? "" : "thread ranks sum and broadcast doubles only";
  }
  void all_reduce(const void* send, void* recv, std::size_t count, DType, ReduceOp) override {
    const auto* in = static_cast<const double*>(send);
    auto* out = static_cast<double*>(recv);
    for (std::size_t i = 0; i < count; ++i)
      out[i] = comm_.sum(in[i]);
  }
  void all_gather(const void*, void*, std::size_t, DType) override { unsupported(); }
  void reduce_scatter(const void*, void*, std::size_t, DType, ReduceOp) override { unsupported(); }
  void broadcast(const void* send, void* recv, std::size_t count, DType, int root) override {
    if (root != 0)
      unsupported();
    if (comm_.rank() == 0 && send != recv)
      std::memcpy(recv, send, count * sizeof(double));
    comm_.broadcast(recv, static_cast<int>(count * sizeof(double)));
  }
  void alltoall(const void*, void*, std::size_t, DType) override { unsupported(); }

private:
  [[noreturn]] static void unsupported() { CB_RUN_ERROR("not on thread ranks"); }
  const Communicator& comm_;
};

// The host backend whose rank sleeps `late(sample)` seconds before each timed batch: it starts
// its collective that much after the others, who wait for it.
class LateBackend : public HostBackend {
public:
  LateBackend(int local_rank, std::function<double()> late)
      : HostBackend(local_rank), late_(std::move(late)) {}
  double time_batch(int k, const std::function<void()>& enqueue_one) override {
    if (const double s = late_(); s > 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(s));
    return HostBackend::time_batch(k, enqueue_one);
  }
  std::unique_ptr<CollectiveComm> collectives(const Communicator& comm) override {
    return std::make_unique<ThreadCollectives>(comm);
  }
  std::string why_no_collectives(const Communicator&) const override { return ""; }

private:
  std::function<double()> late_;
};

std::unique_ptr<BenchmarkCase> make_collective(const std::string& name) {
  for (auto& c : CaseRegistry::instance().create_all()) {
    if (c->suite() == "collectives" && c->name() == name)
      return std::move(c);
  }
  throw std::runtime_error("no collectives/" + name + " case registered");
}

constexpr int kRanks = 6; // three hosts of two
constexpr int kPerHost = 2;

// Rank 0's records of collectives/`name` at 8 bytes, out of place, one collective per sample.
// `late(rank)` gives each rank's delay source.
std::vector<Record> collective_on_threads(const std::function<std::function<double()>(int)>& late,
                                          const std::string& name = "all_reduce") {
  std::vector<Communicator> worlds = Communicator::threads(kRanks);
  std::vector<int> node_keys;
  std::vector<std::string> hosts;
  std::vector<nlohmann::json> devices;
  std::vector<int> members;
  for (int r = 0; r < kRanks; ++r) {
    node_keys.push_back(r / kPerHost);
    hosts.push_back("n" + std::to_string(r / kPerHost + 1));
    devices.push_back({{"index", r % kPerHost}, {"uuid", "dev-" + std::to_string(r)}});
    members.push_back(r);
  }
  const NodeLayout layout = make_layout(node_keys, hosts);
  RunConfig config;
  config.backend_kind = BackendKind::host;
  config.axis_settings = {{"--axis", "", "dtype", "double", ""},
                          {"--axis", "", "op", "sum", ""},
                          {"--axis", "", "bytes", "8", ""}};
  kPlacement.set(config, "out");
  // One collective per sample (batch 1), 24 samples: the sleeps, not the sums, set the times.
  config.measure.batch_time_s = 0;
  config.measure.min_samples = 24;
  config.measure.max_samples = 24;
  config.measure.min_time_s = 0;
  config.measure.max_time_s = 60;
  config.measure.settle = false;
  std::vector<Record> out;
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < kRanks; ++r) {
      threads.emplace_back([&, r] {
        LateBackend backend(r % kPerHost, late(r));
        const CaseContext ctx{backend, worlds[static_cast<std::size_t>(r)],    config, layout,
                              members, Placement{kRanks / kPerHost, kPerHost}, devices};
        const std::unique_ptr<BenchmarkCase> collective = make_collective(name);
        auto records = run_instance(*collective, ctx, collective->instances(config).at(0));
        if (r == 0)
          out = std::move(records);
      });
    }
  }
  return out;
}

std::size_t ranks_with_samples(const Record& r) {
  std::size_t n = 0;
  for (const auto& entry : r.per_rank)
    n += entry.contains("samples_s") ? 1 : 0;
  return n;
}

// What every collective record keeps, straggler or not.
void expect_rank_timing(const Record& r) {
  ASSERT_EQ(r.per_rank.size(), static_cast<std::size_t>(kRanks));
  double shares = 0;
  for (const auto& entry : r.per_rank) {
    ASSERT_TRUE(entry.contains("p99_s")) << entry.dump();
    EXPECT_GE(entry["p99_s"].get<double>(), entry["median_s"].get<double>() * 0.999);
    shares += entry.value("shortest_share", 0.0);
    if (entry.contains("samples_s")) {
      EXPECT_EQ(entry["samples_s"].size(), r.samples_s.size()); // 24, under the cap
    }
  }
  EXPECT_NEAR(shares, 1.0, 1e-3); // one rank is the shortest in each sample
  EXPECT_EQ(ranks_with_samples(r), kRankSamplesRanks);
  EXPECT_EQ(r.samples_s.size(), 24u);
  EXPECT_GE(r.stats.spike, 1.0);
  EXPECT_EQ(r.check, DataCheck::pass); // the sums were right
  // What the loader reads back is what was written.
  const Record back = record_from_json(record_to_json(r), "test");
  EXPECT_EQ(back.straggler.has_value(), r.straggler.has_value());
  EXPECT_EQ(back.per_rank, r.per_rank);
}

TEST(StragglersOnThreads, ARankLateBeforeEveryCollectiveIsNamedWithItsHostAndDevice) {
  // Rank 3 (host n2, device 1) starts each collective 10 ms after the others.
  const auto records = collective_on_threads([](int rank) -> std::function<double()> {
    return [rank] { return rank == 3 ? 10e-3 : 0.0; };
  });
  ASSERT_EQ(records.size(), 1u);
  const Record& r = records[0];
  expect_rank_timing(r);
  ASSERT_TRUE(r.straggler) << record_to_json(r).dump();
  EXPECT_EQ(r.straggler->rank, 3);
  EXPECT_EQ(r.straggler->host, "n2");
  EXPECT_EQ(r.straggler->device, 1);
  EXPECT_GT(r.straggler->shortest_share, 0.5);
  // The others waited about 10 ms per collective; the late rank hardly at all.
  EXPECT_GT(r.straggler->others_median_s, 5e-3);
  EXPECT_LT(r.straggler->median_s, 0.9 * r.straggler->others_median_s);
  EXPECT_TRUE(r.per_rank[3].contains("samples_s")); // the straggler's raw samples are kept
}

TEST(StragglersOnThreads, EqualRanksLateAtRandomNameNobody) {
  // Every rank starts each collective 0 to 4 ms late at random: each is the last about as often.
  const auto records = collective_on_threads([](int rank) -> std::function<double()> {
    auto rng = std::make_shared<std::mt19937>(1000 + rank);
    return [rng] { return std::uniform_real_distribution<double>(0, 4e-3)(*rng); };
  });
  ASSERT_EQ(records.size(), 1u);
  const Record& r = records[0];
  expect_rank_timing(r);
  EXPECT_FALSE(r.straggler) << record_to_json(r).dump();
  for (const auto& entry : r.per_rank)
    EXPECT_LE(entry.value("shortest_share", 0.0), kStragglerMinShare) << entry.dump();
}

TEST(StragglersOnThreads, ABroadcastKeepsTheFiguresButNamesNobody) {
  // The same late rank: a broadcast's root may finish first without having arrived last, so its
  // records name no straggler.
  const auto records = collective_on_threads(
      [](int rank) -> std::function<double()> {
        return [rank] { return rank == 3 ? 10e-3 : 0.0; };
      },
      "broadcast");
  ASSERT_EQ(records.size(), 1u);
  expect_rank_timing(records[0]);
  EXPECT_FALSE(records[0].straggler);
  EXPECT_GT(records[0].per_rank[3].value("shortest_share", 0.0), 0.5); // it was late all the same
}

} // namespace
} // namespace cb
