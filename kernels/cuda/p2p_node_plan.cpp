#include "cuda/p2p_node_plan.hpp"

#include <algorithm>

#include "core/collective_math.hpp"
#include "core/error.hpp"

namespace cb::cuda {

std::vector<int> first_node_members(const std::vector<int>& node_of_member) {
  std::vector<int> out;
  for (std::size_t i = 0; i < node_of_member.size(); ++i) {
    if (node_of_member[i] == node_of_member.front())
      out.push_back(static_cast<int>(i));
  }
  return out;
}

std::string why_no_p2p_matrix(const std::vector<int>& compute_modes) {
  if (compute_modes.size() < 2) {
    return std::to_string(compute_modes.size()) + " GPU" + (compute_modes.size() == 1 ? "" : "s") +
           ": no pair to measure";
  }
  for (std::size_t rank = 0; rank < compute_modes.size(); ++rank) {
    const int mode = compute_modes[rank];
    if (mode == 0 || mode == 1 || mode == 3)
      continue;
    const std::string what = mode == 2 ? "compute mode Prohibited (no process may use it)"
                                       : "an unknown compute mode " + std::to_string(mode);
    return "the GPU of the node's rank " + std::to_string(rank) + " is in " + what +
           " (nvidia-smi -c DEFAULT or EXCLUSIVE_PROCESS allows the matrix)";
  }
  return "";
}

std::vector<RankPairs> sequential_rounds(int n) {
  std::vector<RankPairs> rounds;
  for (const DevicePair& pair : p2p_pairs(n, true))
    rounds.push_back({{pair.src, pair.dst}});
  return rounds;
}

std::vector<P2pStep> p2p_steps(const std::vector<RankPairs>& rounds, bool bidirectional) {
  std::vector<P2pStep> steps;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const int round = static_cast<int>(r);
    P2pStep forward{round, {}}, backward{round, {}};
    for (const auto& [a, b] : rounds[r]) {
      forward.pairs.push_back({a, b});
      backward.pairs.push_back({b, a});
    }
    if (forward.pairs.empty())
      continue;
    steps.push_back(std::move(forward));
    if (!bidirectional)
      steps.push_back(std::move(backward));
  }
  return steps;
}

P2pStep runnable_step(const P2pStep& step, const std::vector<std::vector<std::string>>& unmapped,
                      bool bidirectional, nlohmann::json& skipped) {
  auto why = [&](int src, int dst) -> std::string {
    const auto s = static_cast<std::size_t>(src), d = static_cast<std::size_t>(dst);
    if (s >= unmapped.size() || d >= unmapped[s].size())
      return "no mapping reported";
    return unmapped[s][d];
  };
  P2pStep out{step.round, {}};
  for (const DevicePair& pair : step.pairs) {
    std::string reason = why(pair.src, pair.dst);
    if (reason.empty() && bidirectional) {
      reason = why(pair.dst, pair.src);
      if (!reason.empty())
        reason = "the other way: " + reason;
    }
    if (reason.empty()) {
      out.pairs.push_back(pair);
    } else {
      skipped.push_back({{"src", pair.src}, {"dst", pair.dst}, {"reason", reason}});
    }
  }
  return out;
}

int push_target(const P2pStep& step, int me, bool bidirectional) {
  for (const DevicePair& pair : step.pairs) {
    if (pair.src == me)
      return pair.dst;
    if (bidirectional && pair.dst == me)
      return pair.src;
  }
  return -1;
}

bool receives_in(const P2pStep& step, int me, bool bidirectional) {
  return std::any_of(step.pairs.begin(), step.pairs.end(), [&](const DevicePair& pair) {
    return pair.dst == me || (bidirectional && pair.src == me);
  });
}

bool same_process(long long my_pid, long long peer_pid, bool ranks_are_threads) {
  return ranks_are_threads && my_pid == peer_pid;
}

std::string push_times_text(const std::vector<PushTime>& pushes) {
  nlohmann::json out = nlohmann::json::array();
  for (const PushTime& p : pushes)
    out.push_back({p.src, p.dst, p.round, p.seconds});
  return out.dump();
}

std::vector<PushTime> push_times_from_text(const std::string& text) {
  const nlohmann::json in = nlohmann::json::parse(text, nullptr, false);
  if (!in.is_array())
    CB_RUN_ERROR("p2p_matrix: a rank's push times are not a JSON array");
  std::vector<PushTime> out;
  for (const nlohmann::json& e : in) {
    if (!e.is_array() || e.size() != 4 || !e[0].is_number_integer() || !e[1].is_number_integer() ||
        !e[2].is_number_integer() || !e[3].is_number())
      CB_RUN_ERROR("p2p_matrix: a rank's push time is not [src, dst, round, seconds]");
    out.push_back({e[0].get<int>(), e[1].get<int>(), e[2].get<int>(), e[3].get<double>()});
  }
  return out;
}

NodeMatrix assemble_p2p_matrix(const std::vector<PushTime>& pushes, std::size_t bytes,
                               bool bidirectional) {
  // Both ways: the pair's two pushes, keyed by (lower, higher) rank; the slower one is the pair's.
  std::map<std::pair<int, int>, PushTime> pairs;
  for (const PushTime& p : pushes) {
    if (!(p.seconds > 0) || p.src == p.dst)
      continue; // not measured
    std::pair<int, int> key{p.src, p.dst};
    if (bidirectional && key.first > key.second)
      std::swap(key.first, key.second);
    auto [it, inserted] = pairs.try_emplace(key, PushTime{key.first, key.second, p.round, 0});
    it->second.seconds = std::max(it->second.seconds, p.seconds);
  }
  NodeMatrix out;
  const double counted = static_cast<double>(bytes) * (bidirectional ? 2 : 1);
  for (const auto& [key, p] : pairs) {
    out.gbps[key] = gbps(counted, p.seconds);
    out.pair_seconds.push_back(p.seconds);
    out.pair_rounds.push_back({p.src, p.dst, p.round});
  }
  return out;
}

std::string hex_of_bytes(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

std::string bytes_of_hex(const std::string& hex) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0)
    CB_RUN_ERROR("p2p_matrix: an IPC handle's text has an odd length");
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int high = digit(hex[i]), low = digit(hex[i + 1]);
    if (high < 0 || low < 0)
      CB_RUN_ERROR("p2p_matrix: an IPC handle's text is not lowercase hex");
    out.push_back(static_cast<char>(high * 16 + low));
  }
  return out;
}

} // namespace cb::cuda
