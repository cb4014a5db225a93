#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "runtime/gpu_assignment.hpp"

using namespace cb;

namespace gpu_assignment_test {

// A dual-socket node with eight GPUs: GPU-0..GPU-3 on socket 0's PCI roots, GPU-4..GPU-7 on
// socket 1's, bus ids increasing with the GPU (as nvidia-smi numbers them).
const std::vector<VisibleGpu> kNode8 = {{"GPU-0", "0000:18:00.0"}, {"GPU-1", "0000:2a:00.0"},
                                        {"GPU-2", "0000:3a:00.0"}, {"GPU-3", "0000:5d:00.0"},
                                        {"GPU-4", "0000:9a:00.0"}, {"GPU-5", "0000:ab:00.0"},
                                        {"GPU-6", "0000:ba:00.0"}, {"GPU-7", "0000:db:00.0"}};

std::vector<VisibleGpu> gpus(std::initializer_list<int> indices) {
  std::vector<VisibleGpu> out;
  for (int i : indices)
    out.push_back(kNode8[static_cast<std::size_t>(i)]);
  return out;
}

// The UUID each rank ends up driving.
std::vector<std::string> chosen(const std::vector<RankView>& ranks, const GpuAssignment& a) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    out.push_back(ranks[i].visible.at(static_cast<std::size_t>(a.ordinal.at(i))).uuid);
  return out;
}

bool all_distinct(const std::vector<std::string>& uuids) {
  return std::set<std::string>(uuids.begin(), uuids.end()).size() == uuids.size();
}

} // namespace gpu_assignment_test
using namespace gpu_assignment_test;

TEST(GpuAssignment, MpirunWithEveryGpuVisibleGivesRankNTheNthGpu) {
  std::vector<RankView> ranks;
  for (int r = 0; r < 8; ++r)
    ranks.push_back({r, kNode8});
  const GpuAssignment a = assign_gpus("gpu-01", ranks);
  ASSERT_EQ(a.problem, "");
  EXPECT_EQ(a.ordinal, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// srun --gpu-bind=closest with the default cyclic distribution over sockets: tasks 0, 2, 4, 6
// run on socket 0 and see GPUs 0-3, tasks 1, 3, 5, 7 see GPUs 4-7. Local rank modulo the count
// chose ordinals 0, 2, 0, 2 on each socket: four GPUs driven twice.
TEST(GpuAssignment, SlurmClosestCyclicOverTwoSocketsGivesEachTaskItsOwnGpu) {
  std::vector<RankView> ranks;
  for (int r = 0; r < 8; ++r)
    ranks.push_back({r, r % 2 == 0 ? gpus({0, 1, 2, 3}) : gpus({4, 5, 6, 7})});
  const GpuAssignment a = assign_gpus("gpu-01", ranks);
  ASSERT_EQ(a.problem, "");
  EXPECT_EQ(chosen(ranks, a), (std::vector<std::string>{"GPU-0", "GPU-4", "GPU-1", "GPU-5", "GPU-2",
                                                        "GPU-6", "GPU-3", "GPU-7"}));
  std::vector<std::string> modulo; // the old rule, for the record of what it did here
  for (int r = 0; r < 8; ++r)
    modulo.push_back(
        ranks[static_cast<std::size_t>(r)].visible[static_cast<std::size_t>(r % 4)].uuid);
  EXPECT_FALSE(all_distinct(modulo));
}

TEST(GpuAssignment, SlurmClosestBlockOverTwoSocketsKeepsRanksOnTheirSocket) {
  std::vector<RankView> ranks;
  for (int r = 0; r < 8; ++r)
    ranks.push_back({r, r < 4 ? gpus({0, 1, 2, 3}) : gpus({4, 5, 6, 7})});
  const GpuAssignment a = assign_gpus("gpu-01", ranks);
  ASSERT_EQ(a.problem, "");
  EXPECT_EQ(chosen(ranks, a), (std::vector<std::string>{"GPU-0", "GPU-1", "GPU-2", "GPU-3", "GPU-4",
                                                        "GPU-5", "GPU-6", "GPU-7"}));
}

// --gpus-per-task=1 (per_task:1), --gpu-bind=single:1, map_gpu:0,...,7, a container per rank, a
// wrapper that sets CUDA_VISIBLE_DEVICES=$LOCAL_RANK: each rank sees one GPU, as its ordinal 0.
TEST(GpuAssignment, OneVisibleGpuPerRankIsOrdinalZeroEverywhere) {
  std::vector<RankView> ranks;
  for (int r = 0; r < 8; ++r)
    ranks.push_back({8 + r, gpus({(r * 5) % 8})}); // any order of GPUs over the ranks
  const GpuAssignment a = assign_gpus("gpu-02", ranks);
  ASSERT_EQ(a.problem, "");
  EXPECT_EQ(a.ordinal, std::vector<int>(8, 0));
  EXPECT_TRUE(all_distinct(chosen(ranks, a)));
}

// CUDA_VISIBLE_DEVICES=7,6,5,4,3,2,1,0 for every rank: the set is the node, shared out in bus
// order, so rank r still drives the board nvidia-smi calls GPU r (ordinal 7 - r).
TEST(GpuAssignment, AReorderedVisibleListIsSharedOutInBusOrder) {
  std::vector<RankView> ranks;
  for (int r = 0; r < 8; ++r)
    ranks.push_back({r, gpus({7, 6, 5, 4, 3, 2, 1, 0})});
  const GpuAssignment a = assign_gpus("gpu-01", ranks);
  ASSERT_EQ(a.problem, "");
  EXPECT_EQ(a.ordinal, (std::vector<int>{7, 6, 5, 4, 3, 2, 1, 0}));
}

// A wrapper that rotates the list so that each rank's own GPU is its ordinal 0 (rank r sees
// r, r+1, ...): one set, still one GPU per rank.
TEST(GpuAssignment, RotatedListsPerRankStayOneGpuPerRank) {
  std::vector<RankView> ranks;
  for (int r = 0; r < 8; ++r) {
    std::vector<VisibleGpu> rotated;
    for (int i = 0; i < 8; ++i)
      rotated.push_back(kNode8[static_cast<std::size_t>((r + i) % 8)]);
    ranks.push_back({r, rotated});
  }
  const GpuAssignment a = assign_gpus("gpu-01", ranks);
  ASSERT_EQ(a.problem, "");
  EXPECT_TRUE(all_distinct(chosen(ranks, a)));
  EXPECT_EQ(chosen(ranks, a)[3], "GPU-3");
}

TEST(GpuAssignment, OneSocketNodesAndOneGpu) {
  std::vector<RankView> ranks;
  for (int r = 0; r < 4; ++r)
    ranks.push_back({r, gpus({0, 1, 2, 3})}); // closest on one socket: every GPU
  EXPECT_EQ(assign_gpus("h", ranks).ordinal, (std::vector<int>{0, 1, 2, 3}));
  ranks.resize(2); // fewer ranks than GPUs: the first ones in bus order
  EXPECT_EQ(assign_gpus("h", ranks).ordinal, (std::vector<int>{0, 1}));
  EXPECT_EQ(assign_gpus("h", {{0, gpus({0})}}).ordinal, std::vector<int>{0});
  EXPECT_TRUE(assign_gpus("h", {}).ordinal.empty());
}

TEST(GpuAssignment, ARankThatSeesNoGpuIsNamedWithItsHost) {
  std::vector<RankView> ranks{{4, gpus({0})}, {5, {}}};
  EXPECT_EQ(assign_gpus("gpu-07", ranks).problem,
            "rank 5 on gpu-07 sees no GPU: the cuda backend drives one GPU per rank (check the "
            "launcher's GPU binding and CUDA_VISIBLE_DEVICES)");
  EXPECT_TRUE(assign_gpus("gpu-07", ranks).ordinal.empty());
}

TEST(GpuAssignment, RanksThatSeeDifferentCountsAreRefused) {
  std::vector<RankView> ranks{{0, gpus({0, 1, 2, 3})}, {1, gpus({0, 1, 2, 3})}, {2, kNode8}};
  EXPECT_EQ(assign_gpus("gpu-03", ranks).problem,
            "ranks 0 and 2 on gpu-03 see 4 GPUs and 8: every rank of a node must see as many GPUs "
            "(one GPU per rank, or the node's GPUs by one rule: srun --gpu-bind, "
            "CUDA_VISIBLE_DEVICES)");
}

// map_gpu:0,0,1,1 (a map that repeats), or five tasks on a socket with four GPUs under closest.
TEST(GpuAssignment, TwoRanksThatWouldShareAGpuAreRefused) {
  std::vector<RankView> ranks{{0, gpus({0})}, {1, gpus({0})}, {2, gpus({1})}, {3, gpus({1})}};
  EXPECT_EQ(assign_gpus("gpu-04", ranks).problem,
            "ranks 0 and 1 on gpu-04 see the same 1 GPU: two would share one, and the cuda "
            "backend drives one GPU per rank (fewer ranks per node, or give each rank its own "
            "GPUs)");
  std::vector<RankView> crowded;
  for (int r = 0; r < 5; ++r)
    crowded.push_back({10 + r, gpus({0, 1, 2, 3})});
  EXPECT_NE(assign_gpus("gpu-04", crowded).problem.find("ranks 10, 11, 12, 13 and 14 on gpu-04"),
            std::string::npos);
  // Overlapping sets that are not equal can still meet on one GPU.
  std::vector<RankView> overlapping{{0, gpus({0, 1})}, {1, gpus({0, 2})}};
  EXPECT_NE(assign_gpus("gpu-04", overlapping)
                .problem.find("ranks 0 and 1 on gpu-04 would share GPU GPU-0"),
            std::string::npos);
  // One GPU named twice in one rank's list.
  EXPECT_NE(assign_gpus("gpu-04", {{0, gpus({1, 1})}}).problem.find("sees one GPU twice"),
            std::string::npos);
}

TEST(GpuAssignment, AHostileHostNameIsShownSafely) {
  const std::string problem = assign_gpus("evil\nhost", {{0, {}}}).problem;
  EXPECT_EQ(problem.find('\n'), std::string::npos);
}

TEST(GpuAssignment, VisibleListsTravelAsJson) {
  const std::string text = visible_gpus_text(gpus({2, 5}));
  const auto back = parse_visible_gpus(text);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].uuid, "GPU-5");
  EXPECT_EQ(back[1].pci_bus_id, "0000:ab:00.0");
  EXPECT_TRUE(parse_visible_gpus("[]").empty());
  EXPECT_THROW(parse_visible_gpus("{"), InputError);
  EXPECT_THROW(parse_visible_gpus("[{\"pci_bus_id\":\"x\"}]"), InputError);
  EXPECT_THROW(parse_visible_gpus("[{\"uuid\":\"\"}]"), InputError);
}

#include "runtime/case.hpp"

TEST(GpuNames, EntriesNameTheBoardAsNvidiaSmiDoes) {
  nlohmann::json entry = {{"rank", 9}, {"device", 0}};
  add_gpu_names({{"index", 0}, {"nvml_index", 6}, {"pci_bus_id", "0000:BA:00.0"}}, entry);
  EXPECT_EQ(entry,
            (nlohmann::json{
                {"rank", 9}, {"device", 0}, {"nvml_index", 6}, {"pci_bus_id", "0000:BA:00.0"}}));
  // The host backend's device has no bus id and no NVML index: nothing added.
  nlohmann::json host = {{"rank", 0}};
  add_gpu_names({{"index", 0}, {"pci_bus_id", ""}}, host);
  EXPECT_EQ(host, (nlohmann::json{{"rank", 0}}));
  add_gpu_names("junk", host);
  EXPECT_EQ(host, (nlohmann::json{{"rank", 0}}));
}

#include <thread>

#include "runtime/device_choice.hpp"

namespace gpu_assignment_test {

thread_local int tl_rank = -1; // which rank the calling thread plays

// A node's ranks as threads, each seeing `view(rank)`; returns each rank's choice and the device
// each was bound beside (-1: not bound).
std::pair<std::vector<DeviceChoice>, std::vector<int>>
choose_on_threads(int n, std::function<std::vector<VisibleGpu>(int)> view) {
  std::vector<DeviceChoice> choices(static_cast<std::size_t>(n));
  std::vector<int> bound(static_cast<std::size_t>(n), -1);
  BackendInfo info;
  info.visible_devices = [view] { return view(tl_rank); };
  info.bind_thread = [&bound](int device) {
    bound[static_cast<std::size_t>(tl_rank)] = device;
    return std::string();
  };
  std::vector<Communicator> node = Communicator::threads(n);
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < n; ++r) {
      threads.emplace_back([&, r] {
        tl_rank = r;
        choices[static_cast<std::size_t>(r)] =
            choose_device(node[static_cast<std::size_t>(r)], info, "gpu-09");
      });
    }
  }
  return {choices, bound};
}

} // namespace gpu_assignment_test
using namespace gpu_assignment_test;

// The node's ranks agree through a gather within the node, each binding beside its own GPU.
TEST(DeviceChoice, TheNodesRanksShareOutWhatTheySee) {
  const auto [choices, bound] = choose_on_threads(8, [](int r) {
    return r % 2 == 0 ? gpus({0, 1, 2, 3}) : gpus({4, 5, 6, 7});
  });
  for (int r = 0; r < 8; ++r) {
    EXPECT_EQ(choices[static_cast<std::size_t>(r)].problem, "");
    EXPECT_EQ(choices[static_cast<std::size_t>(r)].device, r / 2) << r;
    EXPECT_EQ(bound[static_cast<std::size_t>(r)], r / 2) << r;
  }
}

TEST(DeviceChoice, EveryRankOfTheNodeGetsTheSameRefusalAndNoneIsBound) {
  const auto [choices, bound] =
      choose_on_threads(3, [](int r) { return r == 2 ? std::vector<VisibleGpu>{} : gpus({r}); });
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(choices[static_cast<std::size_t>(r)].problem.rfind("rank 2 on gpu-09 sees no GPU", 0),
              0u);
    EXPECT_EQ(choices[static_cast<std::size_t>(r)].device, -1);
    EXPECT_EQ(bound[static_cast<std::size_t>(r)], -1);
  }
}

TEST(DeviceChoice, TheHostBackendsDeviceIsTheRanksIndexOnItsNode) {
  BackendInfo host;
  std::vector<Communicator> node = Communicator::threads(1);
  const DeviceChoice c = choose_device(node[0], host, "h");
  EXPECT_EQ(c.device, 0);
  EXPECT_EQ(c.problem, "");
}
