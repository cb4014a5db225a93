// How a fleet member is named in every report: host, GPU (nvidia-smi's number, its bus id),
// rank, UUID, and a link's two ends.
#include "qualify/fleet.hpp"

namespace cb {

std::string member_label(FleetKind kind, const FleetMember& who, const FleetMember& to) {
  auto gpu = [](const FleetMember& m) {
    std::string text;
    if (m.device >= 0) {
      text = "GPU " + std::to_string(m.device);
      if (!m.pci_bus_id.empty())
        text += " [" + m.pci_bus_id + "]";
    } else if (m.rank >= 0) {
      text = "rank " + std::to_string(m.rank);
    } else {
      text = "GPU ?";
    }
    return text;
  };
  // A record without hosts (one node's peer matrix, say) names GPUs alone.
  auto on_host = [](const FleetMember& m) { return m.host.empty() ? "" : "host " + m.host + " "; };
  switch (kind) {
  case FleetKind::node:
    return "node " + (who.host.empty() ? std::string("?") : who.host);
  case FleetKind::straggler: {
    const std::string text =
        "rank " + (who.rank >= 0 ? std::to_string(who.rank) : std::string("?"));
    std::string where = on_host(who) + (who.device >= 0 ? gpu(who) : "");
    while (!where.empty() && where.back() == ' ')
      where.pop_back();
    if (!who.uuid.empty())
      where += " (" + who.uuid + ")";
    return where.empty() ? text : text + " on " + where;
  }
  case FleetKind::gpu: {
    std::string text = on_host(who) + gpu(who);
    if (!who.uuid.empty())
      text += " (" + who.uuid + ")";
    return text;
  }
  case FleetKind::link: {
    // A link between two nodes (the pair tests' node pairs) has no GPU at either end.
    const bool node_link = who.device < 0 && who.rank < 0 && to.device < 0 && to.rank < 0 &&
                           !who.host.empty() && !to.host.empty();
    if (node_link)
      return "link " + who.host + " <-> " + to.host;
    std::string text = on_host(who) + gpu(who) + " -> ";
    if (to.host != who.host && !to.host.empty())
      text += to.host + " ";
    return text + gpu(to);
  }
  }
  return "";
}

} // namespace cb
