#include <algorithm>
#include <map>
#include <string>

#include "diagnosis/schedules.hpp"

namespace cb {

std::string pair_schedule_for(const std::string& requested, int nodes) {
  if (!requested.empty())
    return requested;
  return nodes >= kScreenFromNodes ? "screen" : "rounds";
}

std::vector<std::vector<MemberPair>> disjoint_sub_rounds(const std::vector<Flow>& flows) {
  // Each node is in at most two pairs of a round (one it sends in, one it receives in), so a
  // greedy colouring needs at most three colours.
  std::map<MemberPair, bool> seen;
  std::map<int, std::vector<int>> colours_of; // node -> colours of its pairs so far
  std::vector<std::vector<MemberPair>> out;
  for (const Flow& f : flows) {
    if (f.src == f.dst)
      continue;
    const MemberPair key{std::min(f.src, f.dst), std::max(f.src, f.dst)};
    if (!seen.emplace(key, true).second)
      continue;
    auto& a = colours_of[f.src];
    auto& b = colours_of[f.dst];
    int colour = 0;
    while (std::find(a.begin(), a.end(), colour) != a.end() ||
           std::find(b.begin(), b.end(), colour) != b.end())
      ++colour;
    a.push_back(colour);
    b.push_back(colour);
    if (out.size() <= static_cast<std::size_t>(colour))
      out.resize(static_cast<std::size_t>(colour) + 1);
    out[static_cast<std::size_t>(colour)].emplace_back(f.src, f.dst);
  }
  return out;
}

} // namespace cb
