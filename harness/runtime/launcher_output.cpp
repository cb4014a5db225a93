#include "runtime/launcher_output.hpp"

namespace cb {
namespace {

// Open MPI frames its help messages with a line of dashes.
bool is_banner_rule(const std::string& line) {
  return line.size() >= 20 && line.find_first_not_of('-') == std::string::npos;
}

bool is_ours(const std::string& line) {
  return line.rfind("clusterbench", 0) == 0 || line.rfind("progress:", 0) == 0;
}

} // namespace

void LauncherOutput::take_line(const std::string& line, std::vector<std::string>& shown) {
  if (is_banner_rule(line)) {
    held_.push_back(line);
    held_in_banner_.push_back(true);
    in_banner_ = !in_banner_;
    return;
  }
  if (!in_banner_ && is_ours(line)) {
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
