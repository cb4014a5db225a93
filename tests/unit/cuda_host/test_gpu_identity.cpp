#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>

#include "cuda/device_info.hpp"
#include "cuda/memory_check.hpp"

namespace cb::cuda {
namespace {

// A fake sysfs with one GPU on NUMA node 1 and one whose node the firmware does not say.
class FakeSysfs : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("cb_sysfs_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    add("0000:9a:00.0", "1\n");
    add("0000:18:00.0", "-1\n");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  void add(const std::string& id, const std::string& numa) {
    const auto dir = root_ / "bus/pci/devices" / id;
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "numa_node") << numa;
  }
  std::filesystem::path root_;
};

TEST_F(FakeSysfs, ReadsTheNumaNodeOfAGpuByItsBusIdInCudasCase) {
  EXPECT_EQ(numa_node_of_pci_device("0000:9A:00.0", root_.string()), 1);
  EXPECT_EQ(numa_node_of_pci_device("0000:9a:00.0", root_.string()), 1);
}

TEST_F(FakeSysfs, UnknownMissingOrHostileIsMinusOne) {
  EXPECT_EQ(numa_node_of_pci_device("0000:18:00.0", root_.string()), -1);
  EXPECT_EQ(numa_node_of_pci_device("0000:ff:00.0", root_.string()), -1);
  EXPECT_EQ(numa_node_of_pci_device("", root_.string()), -1);
  EXPECT_EQ(numa_node_of_pci_device("../../../etc", root_.string()), -1);
  EXPECT_EQ(numa_node_of_pci_device("0000:9a:00.0/..", root_.string()), -1);
}

// Free memory, not total: 141 GB total with NCCL's buffers and another case's left 2 GB free.
TEST(DeviceMemory, ACaseFitsInWhatIsFreeBesideTheReserve) {
  constexpr std::size_t GiB = 1ull << 30;
  EXPECT_EQ(device_memory_shortfall(1 * GiB, 2 * GiB, "0000:18:00.0"), "");
  EXPECT_EQ(device_memory_shortfall(2 * GiB, 2 * GiB, "0000:18:00.0"),
            "needs 2.0 GiB of GPU memory (and 512.0 MiB kept free), 2.0 GiB free on GPU "
            "0000:18:00.0");
  EXPECT_NE(device_memory_shortfall(64 * GiB, 1 * GiB, "x"), "");
  EXPECT_NE(device_memory_shortfall(0, kDeviceMemoryReserve - 1, "x"), "");
  EXPECT_EQ(device_memory_shortfall(0, kDeviceMemoryReserve, "x"), "");
}

} // namespace
} // namespace cb::cuda
