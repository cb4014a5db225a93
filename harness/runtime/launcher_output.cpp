#include "runtime/launcher_output.hpp"

#include <optional>
#include <utility>

namespace cb {
namespace {

// Open MPI frames its help messages with a line of dashes.
bool is_banner_rule(const std::string& line) {
  return line.size() >= 20 && line.find_first_not_of('-') == std::string::npos;
}

bool is_ours(const std::string& line) {
  return line.rfind("clusterbench", 0) == 0 || line.rfind("progress:", 0) == 0;
}

// "clusterbench CMD: rank N: TEXT" -> {N, "clusterbench CMD: rank #: TEXT"}; nullopt otherwise.
std::optional<std::pair<long, std::string>> rank_line(const std::string& line) {
  const std::size_t colon = line.find(": rank ");
  if (line.rfind("clusterbench ", 0) != 0 || colon == std::string::npos)
    return std::nullopt;
  const std::size_t digits = colon + 7;
  std::size_t end = digits;
  while (end < line.size() && end - digits < 9 && line[end] >= '0' && line[end] <= '9')
    ++end;
  if (end == digits || line.compare(end, 2, ": ") != 0)
    return std::nullopt;
  return std::make_pair(std::stol(line.substr(digits, end - digits)),
                        line.substr(0, digits) + "#" + line.substr(end));
}

constexpr std::size_t kRanksNamed = 8;

} // namespace

void LauncherOutput::take_line(const std::string& line, std::vector<std::string>& shown) {
  if (is_banner_rule(line)) {
    held_.push_back(line);
    held_in_banner_.push_back(true);
    in_banner_ = !in_banner_;
    return;
  }
  if (!in_banner_ && line == kJobDoneLine) {
    job_done_ = true;
    return;
  }
  if (!in_banner_ && is_ours(line)) {
    if (const auto said = rank_line(line)) {
      const auto [it, first] = repeat_of_.try_emplace(said->second, repeats_.size());
      if (first) {
        repeats_.push_back({line, said->first, {}, 0});
      } else {
        Repeats& r = repeats_[it->second];
        ++r.more;
        if (r.ranks.size() < kRanksNamed)
          r.ranks.push_back(said->first);
        return;
      }
    }
    shown.push_back(line);
    return;
  }
  held_.push_back(line);
  held_in_banner_.push_back(in_banner_);
}

std::vector<std::string> LauncherOutput::feed(const std::string& bytes) {
  std::vector<std::string> shown;
  partial_ += bytes;
  std::size_t start = 0;
  for (std::size_t end; (end = partial_.find('\n', start)) != std::string::npos; start = end + 1)
    take_line(partial_.substr(start, end - start), shown);
  partial_.erase(0, start);
  return shown;
}

std::vector<std::string> LauncherOutput::finish() {
  std::vector<std::string> shown;
  if (!partial_.empty())
    take_line(partial_, shown);
  partial_.clear();
  return shown;
}

std::vector<std::string> LauncherOutput::repeated() const {
  std::vector<std::string> out;
  for (const Repeats& r : repeats_) {
    if (r.more == 0)
      continue;
    std::string ranks;
    for (long rank : r.ranks)
      ranks += ", " + std::to_string(rank);
    if (r.more > static_cast<long>(r.ranks.size()))
      ranks += ", ...";
    const std::string prefix = r.first_line.substr(0, r.first_line.find(": rank "));
    out.push_back(prefix + ": rank " + std::to_string(r.first_rank) + "'s line above was said by " +
                  std::to_string(r.more) + " more rank" + (r.more == 1 ? "" : "s") + " too (" +
                  ranks.substr(2) + ")");
  }
  return out;
}

std::vector<std::string> LauncherOutput::held_outside_banners() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (!held_in_banner_[i] && !held_[i].empty())
      out.push_back(held_[i]);
  }
  return out;
}

std::string LauncherOutput::cause() const {
  const auto outside = held_outside_banners();
  if (!outside.empty())
    return outside.front();
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (held_in_banner_[i] && !held_[i].empty() && !is_banner_rule(held_[i]))
      return held_[i];
  }
  return "";
}

} // namespace cb
