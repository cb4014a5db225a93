#include "runtime/gpu_assignment.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/error.hpp"

namespace cb {
namespace {

std::string ranks_named(const std::vector<int>& world_ranks) {
  std::string out;
  for (std::size_t i = 0; i < world_ranks.size(); ++i) {
    if (i > 0)
      out += i + 1 == world_ranks.size() ? " and " : ", ";
    out += std::to_string(world_ranks[i]);
  }
  return out;
}

std::string gpu_count_text(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

// The set a rank sees, as a key that ignores the rank's own ordinal order.
std::vector<std::string> visible_set_key(const std::vector<VisibleGpu>& visible) {
  std::vector<std::string> key;
  for (const auto& gpu : visible)
    key.push_back(gpu.uuid);
  std::sort(key.begin(), key.end());
  return key;
}

// The set's GPUs in physical order: PCI bus id, then UUID (a GPU whose bus id is unknown).
std::vector<VisibleGpu> in_pci_bus_order(std::vector<VisibleGpu> visible) {
  std::sort(visible.begin(), visible.end(), [](const VisibleGpu& a, const VisibleGpu& b) {
    return std::tie(a.pci_bus_id, a.uuid) < std::tie(b.pci_bus_id, b.uuid);
  });
  return visible;
}

std::string first_visibility_problem(const std::string& host, const std::vector<RankView>& ranks) {
  for (const auto& rank : ranks) {
    if (rank.visible.empty()) {
      return "rank " + std::to_string(rank.world_rank) + " on " + shown(host) +
             " sees no GPU: the cuda backend drives one GPU per rank (check the launcher's GPU "
             "binding and CUDA_VISIBLE_DEVICES)";
    }
    const std::vector<std::string> key = visible_set_key(rank.visible);
    if (std::adjacent_find(key.begin(), key.end()) != key.end()) {
      return "rank " + std::to_string(rank.world_rank) + " on " + shown(host) +
             " sees one GPU twice (CUDA_VISIBLE_DEVICES names it twice?)";
    }
  }
  for (const auto& rank : ranks) {
    if (rank.visible.size() != ranks.front().visible.size()) {
      return "ranks " + ranks_named({ranks.front().world_rank, rank.world_rank}) + " on " +
             shown(host) + " see " + gpu_count_text(ranks.front().visible.size()) + " and " +
             std::to_string(rank.visible.size()) +
             ": every rank of a node must see as many GPUs (one GPU per rank, or the node's "
             "GPUs by one rule: srun --gpu-bind, CUDA_VISIBLE_DEVICES)";
    }
  }
  return "";
}

} // namespace

GpuAssignment assign_gpus(const std::string& host, const std::vector<RankView>& ranks) {
  GpuAssignment out;
  if (ranks.empty())
    return out;
  if (out.problem = first_visibility_problem(host, ranks); !out.problem.empty())
    return out;
  // The ranks that see one set, in local-rank order.
  std::map<std::vector<std::string>, std::vector<std::size_t>> sharers;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    sharers[visible_set_key(ranks[i].visible)].push_back(i);
  std::vector<std::string> chosen_uuid(ranks.size());
  for (const auto& [key, members] : sharers) {
    const std::vector<VisibleGpu> ordered = in_pci_bus_order(ranks[members.front()].visible);
    if (members.size() > ordered.size()) {
      std::vector<int> names;
      for (std::size_t i : members)
        names.push_back(ranks[i].world_rank);
      out.problem = "ranks " + ranks_named(names) + " on " + shown(host) + " see the same " +
                    gpu_count_text(ordered.size()) +
                    ": two would share one, and the cuda backend drives one GPU per rank (fewer "
                    "ranks per node, or give each rank its own GPUs)";
      return out;
    }
    for (std::size_t position = 0; position < members.size(); ++position)
      chosen_uuid[members[position]] = ordered[position].uuid;
  }
  // Sets that overlap without being equal (closest on a GPU that two NUMA domains share) can
  // still hand one GPU to two ranks.
  std::map<std::string, std::size_t> taker;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const auto [it, fresh] = taker.emplace(chosen_uuid[i], i);
    if (!fresh) {
      out.problem = "ranks " + ranks_named({ranks[it->second].world_rank, ranks[i].world_rank}) +
                    " on " + shown(host) + " would share GPU " + shown(chosen_uuid[i]) +
                    ": they see overlapping GPU sets; give each rank its own GPUs (srun "
                    "--gpu-bind=single:1, or CUDA_VISIBLE_DEVICES per rank)";
      return out;
    }
  }
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const auto& visible = ranks[i].visible;
    const auto it = std::find_if(visible.begin(), visible.end(),
                                 [&](const VisibleGpu& g) { return g.uuid == chosen_uuid[i]; });
    out.ordinal.push_back(static_cast<int>(it - visible.begin()));
  }
  return out;
}

std::string visible_gpus_text(const std::vector<VisibleGpu>& gpus) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& gpu : gpus)
    list.push_back({{"uuid", gpu.uuid}, {"pci_bus_id", gpu.pci_bus_id}});
  return list.dump();
}

std::vector<VisibleGpu> parse_visible_gpus(const std::string& text) {
  const nlohmann::json list = nlohmann::json::parse(text, nullptr, false);
  if (!list.is_array())
    throw InputError("a rank's visible GPUs: not a JSON list");
  std::vector<VisibleGpu> out;
  for (const auto& entry : list) {
    if (!entry.is_object() || !entry.contains("uuid") || !entry["uuid"].is_string() ||
        entry["uuid"].get<std::string>().empty())
      throw InputError("a rank's visible GPUs: an entry without a uuid");
    out.push_back({entry["uuid"].get<std::string>(), entry.value("pci_bus_id", "")});
  }
  return out;
}

} // namespace cb
