#include "runtime/network_interfaces.hpp"

#include <filesystem>
#include <fstream>

namespace cb {
namespace {

std::string read_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

} // namespace

nlohmann::json network_interfaces(const std::string& sysfs) {
  namespace fs = std::filesystem;
  nlohmann::json out = nlohmann::json::array();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(sysfs) / "class/net", ec)) {
    const std::string name = entry.path().filename().string();
    if (name == "lo")
      continue;
    nlohmann::json nic{{"name", name}};
    // ARPHRD type: 1 ethernet, 32 infiniband (IPoIB).
    const std::string type = read_line(entry.path() / "type");
    nic["kind"] = type == "1" ? "ethernet" : type == "32" ? "infiniband" : "other";
    // speed is in Mb/s; -1 or unreadable when the link is down or virtual.
    const std::string speed = read_line(entry.path() / "speed");
    try {
      if (!speed.empty() && std::stol(speed) > 0)
        nic["speed_mbps"] = std::stol(speed);
    } catch (const std::exception&) {
    }
    if (auto state = read_line(entry.path() / "operstate"); !state.empty())
      nic["state"] = state;
    out.push_back(std::move(nic));
  }
  for (const auto& device : fs::directory_iterator(fs::path(sysfs) / "class/infiniband", ec)) {
    std::error_code port_ec;
    for (const auto& port : fs::directory_iterator(device.path() / "ports", port_ec)) {
      nlohmann::json nic{
          {"name", device.path().filename().string() + "/" + port.path().filename().string()},
          {"kind", "infiniband"}};
      // e.g. "400 Gb/sec (4X NDR)"
      if (auto rate = read_line(port.path() / "rate"); !rate.empty())
        nic["rate"] = rate;
      if (auto state = read_line(port.path() / "state"); !state.empty())
        nic["state"] = state;
      if (auto layer = read_line(port.path() / "link_layer"); !layer.empty())
        nic["link_layer"] = layer;
      out.push_back(std::move(nic));
    }
  }
  return out;
}

} // namespace cb
