#include "cuda/p2p_plan.hpp"

#include <algorithm>

namespace cb::cuda {

std::vector<DevicePair> p2p_pairs(int devices, bool bidirectional) {
  std::vector<DevicePair> out;
  for (int i = 0; i < devices; ++i) {
    for (int j = bidirectional ? i + 1 : 0; j < devices; ++j) {
      if (i != j)
        out.push_back({i, j});
    }
  }
  return out;
}

nlohmann::json link_matrix_json(int devices, const std::map<std::pair<int, int>, double>& values,
                                bool bidirectional) {
  nlohmann::json rows = nlohmann::json::array();
  for (int i = 0; i < devices; ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (int j = 0; j < devices; ++j) {
      auto it = values.find({i, j});
      if (it == values.end() && bidirectional)
        it = values.find({j, i});
      if (i == j || it == values.end()) {
        row.push_back(nullptr);
      } else {
        row.push_back(it->second);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<ScheduleStep> held_copy_schedule(int streams, int warmup, int copies) {
  std::vector<ScheduleStep> steps;
  for (int s = 0; s < streams; ++s) {
    steps.push_back({StepKind::spin, s, false});
    for (int i = 0; i < warmup; ++i)
      steps.push_back({StepKind::copy, s, false});
    steps.push_back({StepKind::record_start, s, false});
    for (int i = 0; i < copies; ++i)
      steps.push_back({StepKind::copy, s, true});
    steps.push_back({StepKind::record_stop, s, false});
  }
  steps.push_back({StepKind::release, -1, false});
  return steps;
}

std::string why_no_node_matrix(int visible, int node_gpus, const std::vector<int>& compute_modes) {
  const std::string covers = "covers " + std::to_string(std::max(visible, 0)) + " of the node's " +
                             std::to_string(std::max(node_gpus, visible)) + " GPU" +
                             (std::max(node_gpus, visible) == 1 ? "" : "s");
  if (visible < 2)
    return covers + ": a P2P matrix needs at least 2 GPUs visible to one process";
  if (visible < node_gpus) {
    return covers + ": each rank sees only some of the node's GPUs (--gpu-bind, --gpus-per-task, "
                    "CUDA_VISIBLE_DEVICES, a container), and a smaller matrix is not the node's";
  }
  for (std::size_t i = 0; i < compute_modes.size(); ++i) {
    const int mode = compute_modes[i];
    if (mode == 0)
      continue;
    const char* name = mode == 2   ? "Prohibited"
                       : mode == 3 ? "Exclusive_Process"
                       : mode == 1 ? "Exclusive_Thread"
                                   : "unknown";
    return "GPU " + std::to_string(i) + " is in compute mode " + name +
           ": only the rank that drives it may open it, so one process cannot copy between every "
           "pair (nvidia-smi -c DEFAULT allows it)";
  }
  return "";
}

} // namespace cb::cuda
