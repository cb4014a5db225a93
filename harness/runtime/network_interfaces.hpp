#pragma once
// The network adapters of this node, as the run records them: what an inter-node figure is held
// against. Read from sysfs; absent files leave fields out rather than guessing.
#include <nlohmann/json.hpp>
#include <string>

namespace cb {

// [{name, kind: ethernet|infiniband|other, speed_mbps?, rate?, state?}] for every interface but
// loopback, and every InfiniBand/RoCE port under /sys/class/infiniband. `sysfs` is the root
// ("/sys" in production; a fake tree in tests).
nlohmann::json network_interfaces(const std::string& sysfs = "/sys");

} // namespace cb
