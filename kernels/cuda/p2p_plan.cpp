#include "cuda/p2p_plan.hpp"

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

} // namespace cb::cuda
