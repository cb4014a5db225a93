#include "links/pair_progress.hpp"

#include <filesystem>
#include <fstream>

#include "links/pair_schedule.hpp"
#include "results/output_target.hpp"
#include "results/results_io.hpp"

namespace cb {

std::string pair_progress_path(const std::string& results_path) {
  return results_path + ".pairs-progress.json";
}

PairProgress::PairProgress(const std::string& results_path, std::string record,
                           std::string schedule, std::vector<std::string> node_hosts)
    : path_(results_path.empty() ? "" : pair_progress_path(results_path)) {
  state_ = {{"record", std::move(record)},
            {"schedule", std::move(schedule)},
            {"hosts", std::move(node_hosts)}};
}

void PairProgress::at(const std::string& tier, int round, int rounds) {
  if (path_.empty())
    return;
  state_["tier"] = tier;
  state_["round"] = round;
  state_["rounds"] = rounds;
  // Read only after this job's own ranks died, never after the machine went down.
  write_text_atomic(state_.dump() + "\n", path_, {}, Durability::process_crash);
}

void PairProgress::finished() {
  if (path_.empty())
    return;
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

std::string describe_unfinished_pairs(const std::string& results_path) {
  const std::string path = pair_progress_path(results_path);
  std::ifstream in(path);
  if (!in)
    return "";
  nlohmann::json state;
  try {
    in >> state;
  } catch (const nlohmann::json::exception&) {
    return "";
  }
  const std::string record = state.value("record", "a pair test");
  const std::string tier = state.value("tier", "");
  const int round = state.value("round", 0);
  const int rounds = state.value("rounds", 0);
  const auto hosts = state.value("hosts", std::vector<std::string>{});
  const int nodes = static_cast<int>(hosts.size());
  std::string line = record + " stopped in " + tier + " round " + std::to_string(round + 1) +
                     " of " + std::to_string(rounds);
  if (tier == "intra" && state.value("schedule", "") == "screen") {
    line += "; the screen across nodes had not started";
  } else if (tier == "intra" || tier == "inter") {
    // The node pairs not measured: the inter-node rounds from this one on (all of them when the
    // run stopped inside the nodes), in the schedule's order.
    nlohmann::json missing = nlohmann::json::array();
    const bool sequential = state.value("schedule", "") == "sequential";
    const int from = tier == "inter" ? round : 0;
    int index = 0;
    for (int r = 0; r < circle_round_count(nodes); ++r) {
      for (const auto& [a, b] : circle_round(nodes, r)) {
        const bool done = sequential ? index < from : r < from;
        ++index;
        if (!done)
          missing.push_back(
              {hosts[static_cast<std::size_t>(a)], hosts[static_cast<std::size_t>(b)]});
      }
    }
    const int total = nodes * (nodes - 1) / 2;
    line += "; " + std::to_string(missing.size()) + " of " + std::to_string(total) +
            " node pairs not measured";
    for (std::size_t i = 0; i < missing.size() && i < 8; ++i) {
      line += (i == 0 ? ": " : ", ") + missing[i][0].get<std::string>() + "-" +
              missing[i][1].get<std::string>();
    }
    if (missing.size() > 8)
      line += ", ...";
    if (tier == "intra")
      line += " (and the rest of the pairs within the nodes)";
    state["missing_node_pairs"] = std::move(missing);
    try {
      write_text_atomic(state.dump(1) + "\n", path);
    } catch (const std::exception&) {
      // The line still says it; the file keeps its last state.
    }
    line += "; listed in " + path;
  } else if (tier == "screen") {
    // The screen decides each round from the last: the pairs it would have measured next are
    // not known, and its figures so far are the failed record's.
    line = record + " stopped in screen round " + std::to_string(round + 1) +
           " across nodes (the pairs within the nodes finished); the screen chooses each round "
           "from the last, so the node pairs it did not reach are not listed";
  } else {
    line += " of the second pass; the first pass finished";
  }
  return line;
}

} // namespace cb
