// The link calibration a run makes before its sweep (bench/links/link_calibration.hpp): which
// ranks meet, the transfer size, the median over node pairs of their slowest rails, and the whole
// measurement on thread ranks through a stand-in transport whose seconds follow each pair's rate
// (this tests the schedule and the arithmetic, not a link).
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "links/link_calibration.hpp"
#include "links/links_case.hpp"
#include "runtime/case_context.hpp"
#include "runtime/host_backend.hpp"

namespace cb {
namespace {

TEST(LinkCalibration, NodeAMeetsNodeAPlusHalfFirstRanksOnly) {
  // 4 nodes of 2 ranks: node 0 with node 2, node 1 with node 3, their first ranks.
  const std::vector<int> node_of_rank{0, 0, 1, 1, 2, 2, 3, 3};
  EXPECT_EQ(calibration_pairs(node_of_rank, false),
            (std::vector<std::pair<int, int>>{{0, 4}, {2, 6}}));
  // Rails: local rank i with local rank i.
  EXPECT_EQ(calibration_pairs(node_of_rank, true),
            (std::vector<std::pair<int, int>>{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
}

TEST(LinkCalibration, AnOddNodeSitsOutAndOneNodeHasNoPair) {
  EXPECT_EQ(calibration_pairs({0, 1, 2}, false), (std::vector<std::pair<int, int>>{{0, 1}}));
  EXPECT_TRUE(calibration_pairs({0, 0, 0}, true).empty());
  // Nodes named by any index, ranks in any order: pairs by node index, each node's ranks in order.
  EXPECT_EQ(calibration_pairs({7, 3, 7, 3}, true),
            (std::vector<std::pair<int, int>>{{1, 0}, {3, 2}}));
}

TEST(LinkCalibration, SizeTakesAboutASampleAtTheProbedRate) {
  const std::size_t mib = 1 << 20;
  // 1 MiB in 84 ms (100 Mbit/s): the probe's size already takes longer than a sample.
  EXPECT_EQ(calibration_bytes(mib, 0.084, 64 * mib), mib);
  // 1 MiB in 1 ms (1 GB/s): 50 MB wanted, the largest power of two under it.
  EXPECT_EQ(calibration_bytes(mib, 1e-3, 64 * mib), 32 * mib);
  // 1 MiB in 20 us (50 GB/s): capped at the largest transfer.
  EXPECT_EQ(calibration_bytes(mib, 20e-6, 64 * mib), 64 * mib);
  // A probe that measured nothing keeps the probe's size.
  EXPECT_EQ(calibration_bytes(mib, 0, 64 * mib), mib);
  EXPECT_EQ(calibration_bytes(mib, NAN, 64 * mib), mib);
}

TEST(LinkCalibration, MedianOverNodePairsOfTheirSlowestRail) {
  const std::vector<int> node_of_rank{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  const auto pairs = calibration_pairs(node_of_rank, true); // 3 node pairs, 2 rails each
  std::vector<double> rate(12, 0.0);
  rate[6] = 10, rate[7] = 10;  // node 0 -> 3: 10
  rate[8] = 12, rate[9] = 2;   // node 1 -> 4: its slow rail, 2
  rate[10] = 11, rate[11] = 9; // node 2 -> 5: 9
  int node_pairs = 0;
  EXPECT_DOUBLE_EQ(calibration_median(pairs, node_of_rank, rate, node_pairs), 9);
  EXPECT_EQ(node_pairs, 3);
  // A node pair that measured nothing is not a figure.
  rate[10] = 0;
  EXPECT_DOUBLE_EQ(calibration_median(pairs, node_of_rank, rate, node_pairs), 6);
  EXPECT_EQ(node_pairs, 2);
  EXPECT_EQ(calibration_median(pairs, node_of_rank, std::vector<double>(12, 0.0), node_pairs), 0);
  EXPECT_EQ(node_pairs, 0);
}

// A stand-in transport: a pair moves at the slower end's rate (bytes/s), wrong words where asked.
struct StandIn {
  static inline std::vector<double> rate;
  static inline long long wrong_per_receiver = 0;
};

class StandInTransport : public PairTransport {
public:
  StandInTransport(int me, std::size_t bytes) : me_(me), bytes_(bytes) {}
  double timed(std::pair<int, int> p, int k, bool) override {
    if (me_ != p.first && me_ != p.second)
      return 0;
    const double slower = std::min(StandIn::rate[static_cast<std::size_t>(p.first)],
                                   StandIn::rate[static_cast<std::size_t>(p.second)]);
    return k * static_cast<double>(bytes_) / slower;
  }
  double ping_pong(std::pair<int, int>, int) override { return 0; }
  long long check(std::pair<int, int> p, bool) override {
    return me_ == p.second ? StandIn::wrong_per_receiver : 0;
  }
  std::string method() const override { return "stand-in"; }
  std::string ping_pong_method() const override { return "stand-in"; }
  bool rails() const override { return true; }

private:
  int me_;
  std::size_t bytes_;
};

// The stand-in as the cuda backend's transport while it lives; the registry's entry as it was
// after (this binary has no cuda transport of its own, and no later test should find ours).
class StandInRegistration {
public:
  StandInRegistration() : before_(PairTransportRegistry::instance().find(BackendKind::cuda)) {
    PairTransportRegistry::instance().add(
        BackendKind::cuda, [](const CaseContext& ctx, std::size_t bytes) {
          return std::unique_ptr<PairTransport>(new StandInTransport(ctx.comm.rank(), bytes));
        });
  }
  ~StandInRegistration() { PairTransportRegistry::instance().add(BackendKind::cuda, before_); }
  StandInRegistration(const StandInRegistration&) = delete;
  StandInRegistration& operator=(const StandInRegistration&) = delete;

private:
  PairTransportRegistry::Factory before_;
};

// The measurement on thread ranks, one per rate (bytes/s), per_node to a node, as a backend with
// the stand-in transport; each receiver reports `wrong` wrong words.
std::vector<LinkCalibration> calibrate_on_threads(const std::vector<double>& rates, int per_node,
                                                  long long wrong = 0) {
  StandIn::rate = rates;
  StandIn::wrong_per_receiver = wrong;
  const int n = static_cast<int>(rates.size());
  const StandInRegistration registered;
  std::vector<Communicator> worlds = Communicator::threads(n);
  std::vector<int> keys, members;
  std::vector<std::string> hosts;
  for (int r = 0; r < n; ++r) {
    keys.push_back(r / per_node * per_node);
    hosts.push_back("n" + std::to_string(r / per_node));
    members.push_back(r);
  }
  const NodeLayout layout = make_layout(keys, hosts);
  const std::vector<nlohmann::json> devices(static_cast<std::size_t>(n), {{"index", 0}});
  RunConfig config;
  config.backend_kind = BackendKind::cuda;
  std::vector<LinkCalibration> out(static_cast<std::size_t>(n));
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < n; ++r) {
      threads.emplace_back([&, r] {
        HostBackend backend(0);
        const CaseContext ctx{backend, worlds[static_cast<std::size_t>(r)], config, layout,
                              members, placement_of(layout, members),       devices};
        out[static_cast<std::size_t>(r)] = calibrate_inter_link(ctx);
      });
    }
  }
  return out;
}

// Whether the plan's source says `words`.
::testing::AssertionResult says(const LinkCalibration& c, const std::string& words) {
  if (c.source.find(words) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << c.source << "\" does not say \"" << words << "\"";
}

TEST(LinkCalibration, OnThreadsEveryRankPlansOnTheMedianOfTheSlowestRails) {
  // 8 nodes of 2 ranks: node pairs (0,4) (1,5) (2,6) (3,7); rails at 40 GB/s but rank 11 (node 5,
  // rail 1) at 10 and rank 14 (node 7, rail 0) at 30: node pairs 40, 10, 40, 30 -> median 35.
  std::vector<double> rates(16, 40e9);
  rates[11] = 10e9;
  rates[14] = 30e9;
  const auto out = calibrate_on_threads(rates, 2);
  for (const auto& c : out) {
    EXPECT_NEAR(c.bytes_per_s, 35e9, 1e3);
    EXPECT_EQ(c.source, out[0].source); // the same words on every rank
  }
  EXPECT_TRUE(says(out[0], "calibrated by this run: one-way 64M transfers between 4 node pairs at "
                           "once, the median of their slowest rails"));
}

TEST(LinkCalibration, OnThreadsAtScaleOneRoundWhateverTheNodes) {
  // 256 one-rank nodes at 100 Mbit/s: 128 node pairs at once, the probe's 1 MiB kept.
  const auto out = calibrate_on_threads(std::vector<double>(256, 12.5e6), 1);
  EXPECT_NEAR(out[0].bytes_per_s, 12.5e6, 1);
  EXPECT_TRUE(says(out[0], "one-way 1M transfers between 128 node pairs"));
}

TEST(LinkCalibration, OneSlowPairDoesNotShrinkTheOthersTransfers) {
  // 8 one-rank nodes at 40 GB/s, node pair (3, 7) at 40 MB/s: sized by the slowest probe, every
  // pair would send 2M (the barrier's skew then shows in a healthy pair's time); sized by the
  // receivers' median, 64M. The slow pair is one of four: the median is the healthy rate.
  std::vector<double> rates(8, 40e9);
  rates[7] = 40e6;
  const auto out = calibrate_on_threads(rates, 1);
  EXPECT_NEAR(out[0].bytes_per_s, 40e9, 1e3);
  EXPECT_TRUE(says(out[0], "one-way 64M transfers between 4 node pairs"));
}

TEST(LinkCalibration, ARateNoLinkHasIsNotTakenForThePlan) {
  // 1 kB/s (a clock that ran wrong, a transfer stalled): below what --plan-link accepts.
  const auto out = calibrate_on_threads(std::vector<double>(4, 1e3), 1);
  EXPECT_EQ(out[0].bytes_per_s, 0);
  EXPECT_TRUE(says(out[0], "is not a link's rate"));
}

TEST(LinkCalibration, TheStandInIsGoneAfterwards) {
  EXPECT_EQ(PairTransportRegistry::instance().find(BackendKind::cuda), nullptr);
  calibrate_on_threads(std::vector<double>(2, 1e9), 1);
  EXPECT_EQ(PairTransportRegistry::instance().find(BackendKind::cuda), nullptr);
}

TEST(LinkCalibration, WrongDataLeavesThePlanOnTheModelAndSaysWhy) {
  for (const auto& c : calibrate_on_threads(std::vector<double>(4, 1e9), 1, 3)) {
    EXPECT_EQ(c.bytes_per_s, 0);
    EXPECT_EQ(c.source, "not calibrated (6 wrong words received in its transfers between nodes)");
  }
}

} // namespace
} // namespace cb
