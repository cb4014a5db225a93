#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

#include "runtime/network_interfaces.hpp"

namespace fs = std::filesystem;

namespace {
void put(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text << "\n";
}
} // namespace

TEST(NetworkInterfaces, ReadsEthernetSpeedsAndInfinibandRates) {
  const fs::path root = fs::temp_directory_path() / ("cb-sysfs-" + std::to_string(::getpid()));
  put(root / "class/net/lo/type", "772");
  put(root / "class/net/eth0/type", "1");
  put(root / "class/net/eth0/speed", "100000");
  put(root / "class/net/eth0/operstate", "up");
  put(root / "class/net/veth1/type", "1");
  put(root / "class/net/veth1/speed", "-1");
  put(root / "class/net/ib0/type", "32");
  put(root / "class/infiniband/mlx5_0/ports/1/rate", "400 Gb/sec (4X NDR)");
  put(root / "class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE");
  put(root / "class/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand");
  const auto nics = cb::network_interfaces(root.string());
  fs::remove_all(root);

  std::map<std::string, nlohmann::json> by_name;
  for (const auto& n : nics)
    by_name[n["name"]] = n;
  EXPECT_EQ(by_name.count("lo"), 0u);
  EXPECT_EQ(by_name["eth0"]["kind"], "ethernet");
  EXPECT_EQ(by_name["eth0"]["speed_mbps"], 100000);
  EXPECT_EQ(by_name["eth0"]["state"], "up");
  EXPECT_FALSE(by_name["veth1"].contains("speed_mbps")); // virtual: no speed, not a guess
  EXPECT_EQ(by_name["ib0"]["kind"], "infiniband");
  EXPECT_EQ(by_name["mlx5_0/1"]["rate"], "400 Gb/sec (4X NDR)");
  EXPECT_EQ(by_name["mlx5_0/1"]["link_layer"], "InfiniBand");
}

TEST(NetworkInterfaces, MissingSysfsGivesAnEmptyList) {
  EXPECT_TRUE(cb::network_interfaces("/nonexistent-sysfs").empty());
}
