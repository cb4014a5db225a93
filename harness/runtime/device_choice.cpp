#include "runtime/device_choice.hpp"

#include "core/error.hpp"
#include "runtime/gpu_assignment.hpp"

namespace cb {

DeviceChoice choose_device(const Communicator& node, const BackendInfo& info,
                           const std::string& host) {
  if (!info.visible_devices)
    return {node.rank(), ""};
  std::string mine = "[]"; // a rank whose runtime fails to list its GPUs sees none
  try {
    mine = visible_gpus_text(info.visible_devices());
  } catch (const Error&) {
  }
  const std::vector<std::string> all = node.all_gather_string(mine);
  const std::vector<int> world_ranks = node.world_ranks();
  std::vector<RankView> views;
  for (std::size_t i = 0; i < all.size() && i < world_ranks.size(); ++i)
    views.push_back({world_ranks[i], parse_visible_gpus(all[i])});
  const GpuAssignment chosen = assign_gpus(host, views);
  if (!chosen.problem.empty())
    return {-1, chosen.problem};
  const int device = chosen.ordinal[static_cast<std::size_t>(node.rank())];
  if (info.bind_thread)
    info.bind_thread(device); // "" or why not: where the rank ran is in its device's "cpus"
  return {device, ""};
}

} // namespace cb
