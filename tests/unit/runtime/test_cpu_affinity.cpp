#include <gtest/gtest.h>

#include <numeric>

#include "runtime/cpu_affinity.hpp"

using namespace cb;

namespace cpu_affinity_test {

std::vector<int> range(int first, int last) {
  std::vector<int> out(static_cast<std::size_t>(last - first + 1));
  std::iota(out.begin(), out.end(), first);
  return out;
}

std::vector<int> join(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Two sockets of 56 cores with SMT, as Linux numbers them: socket 0 is CPUs 0-55 and their
// siblings 112-167, socket 1 is 56-111 and 168-223.
const std::vector<int> kSocket0 = join(range(0, 55), range(112, 167));
const std::vector<int> kSocket1 = join(range(56, 111), range(168, 223));

} // namespace cpu_affinity_test
using namespace cpu_affinity_test;

TEST(CpuAffinity, DecodesNvmlAndKernelMasks) {
  EXPECT_EQ(cpus_of_mask({0x3, 0x1}), (std::vector<int>{0, 1, 64}));
  EXPECT_EQ(cpus_of_mask({0x8000000000000000ULL}), std::vector<int>{63});
  EXPECT_TRUE(cpus_of_mask({}).empty());
}

TEST(CpuAffinity, WritesCpuListsAsLinuxDoes) {
  EXPECT_EQ(cpu_list_text(kSocket1), "56-111,168-223");
  EXPECT_EQ(cpu_list_text({5, 3, 4, 9, 9, 0}), "0,3-5,9");
  EXPECT_EQ(cpu_list_text({}), "");
}

// mpirun --map-by slot:PE=14 --bind-to core: rank 5 on cores 70-83, on its GPU's socket. Kept.
TEST(CpuAffinity, KeepsALauncherBindingOnTheGpusSocket) {
  EXPECT_EQ(cpus_near_device(range(70, 83), kSocket1), range(70, 83));
  // srun --cpus-per-task=28 on socket 1 with both SMT siblings: kept as it is.
  const auto task = join(range(84, 97), range(196, 209));
  EXPECT_EQ(cpu_list_text(cpus_near_device(task, kSocket1)), "84-97,196-209");
}

// The old mpirun --bind-to core --map-by core: rank 5 on core 5, socket 0, driving GPU 5 on
// socket 1. Moved to the GPU's socket.
TEST(CpuAffinity, MovesARankTheLauncherPutOnTheFarSocket) {
  EXPECT_EQ(cpus_near_device({5}, kSocket1), cpus_near_device(kSocket1, kSocket1));
  EXPECT_EQ(cpu_list_text(cpus_near_device({5}, kSocket1)), "56-111,168-223");
}

TEST(CpuAffinity, NarrowsAnUnboundRankToItsGpusSocket) {
  EXPECT_EQ(cpu_list_text(cpus_near_device(range(0, 223), kSocket0)), "0-55,112-167");
  // A binding that straddles both sockets keeps the GPU's half.
  EXPECT_EQ(cpu_list_text(cpus_near_device(range(50, 60), kSocket0)), "50-55");
}

TEST(CpuAffinity, OneSocketOrNothingKnownLeavesTheBindingAlone) {
  EXPECT_EQ(cpus_near_device(range(0, 7), range(0, 63)), range(0, 7));
  EXPECT_EQ(cpus_near_device(range(8, 15), {}), range(8, 15));
}

TEST(CpuAffinity, BindsTheCallingThreadToCpusItMayUse) {
  const std::vector<int> mine = current_thread_cpus();
  ASSERT_FALSE(mine.empty());
  EXPECT_EQ(bind_calling_thread(mine), "");
  EXPECT_EQ(current_thread_cpus(), mine);
  EXPECT_EQ(bind_calling_thread({}), "no CPU to bind to");
  EXPECT_EQ(bind_calling_thread({-1}), "no CPU to bind to");
}
