#include "imports/nccl_tests_lines.hpp"

#include "imports/nccl_tests_import.hpp"
#include "imports/text_lines.hpp"

namespace cb::nccl_tests {

std::optional<Layout> layout_from_header(const std::vector<std::string>& tokens) {
  Layout l;
  std::vector<int> starts;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    if (tokens[i] == "time" || tokens[i] == "cputime")
      starts.push_back(i);
  }
  if (starts.size() != 2)
    return std::nullopt;
  l.lead = starts[0];
  l.group = starts[1] - starts[0];
  if (l.group < 4)
    return std::nullopt;
  const std::string& check = tokens[static_cast<std::size_t>(starts[0] + 3)];
  if (check == "#wrong") {
    l.check = CheckColumn::wrong_count;
  } else if (check == "error") {
    l.check = CheckColumn::max_deviation;
  } else {
    return std::nullopt;
  }
  auto find = [&](const char* name) {
    for (int i = 0; i < l.lead; ++i) {
      if (tokens[static_cast<std::size_t>(i)] == name)
        return i;
    }
    return -1;
  };
  l.size = find("size");
  l.count = find("count");
  l.type = find("type");
  l.redop = find("redop");
  l.root = find("root");
  if (l.size < 0 || l.count < 0 || l.type < 0)
    return std::nullopt;
  for (std::size_t i = static_cast<std::size_t>(starts[1] + l.group); i < tokens.size(); ++i)
    l.trailing += tokens[i] == "timestamp" ? 2 : 1; // "2025-06-01 10:00:00"
  return l;
}

std::optional<Half> half_from(const std::vector<std::string>& t, int at, CheckColumn column) {
  const auto i = static_cast<std::size_t>(at);
  auto time = parse_double(t[i]);
  auto algbw = parse_double(t[i + 1]);
  auto busbw = parse_double(t[i + 2]);
  if (!time || !algbw || !busbw || *time <= 0 || *algbw < 0 || *busbw < 0)
    return std::nullopt;
  Half h;
  h.time_us = *time;
  h.algbw = *algbw;
  h.busbw = *busbw;
  std::string_view check = t[i + 3];
  if (check.size() > 1 && check.back() == '~') { // clusterbench's table: samples not settled
    h.noisy = true;
    check.remove_suffix(1);
  }
  if (check == "N/A")
    return h; // checking was off (-c 0)
  if (column == CheckColumn::wrong_count) {
    // A count is an integer: "5e-07" under "#wrong" is not a layout nccl-tests prints.
    const auto wrong = parse_long(check);
    if (!wrong || *wrong < 0)
      return std::nullopt;
    h.wrong = *wrong;
    h.check = *wrong == 0 ? DataCheck::pass : DataCheck::fail;
  } else {
    const auto deviation = parse_double(check);
    if (!deviation || *deviation < 0)
      return std::nullopt;
    h.max_deviation = *deviation; // judged with the block's footer (see judge_deviations)
  }
  return h;
}

// A count from digits; -1 when it is not one or does not fit a plausible count.
int small_count(std::string_view digits) {
  const auto value = parse_long(digits);
  return value && *value >= 0 && *value <= 1 << 24 ? static_cast<int>(*value) : -1;
}

std::optional<RankLine> rank_line(std::string_view line) {
  // 2.13+: "#  Rank  0 Group  0 Pid 12345 on node1 device  0 [0000:18:00] NVIDIA H100 80GB HBM3"
  // older: "#   Rank  0 Pid   1320 on node1 device  0 [0x1b] Tesla V100-SXM2-16GB"
  const auto t = split_whitespace(line.substr(1));
  std::size_t i = 0;
  auto next_is = [&](const char* word) { return i < t.size() && t[i] == word; };
  if (!next_is("Rank") || i + 1 >= t.size())
    return std::nullopt;
  const int rank = small_count(t[i + 1]);
  i += 2;
  if (next_is("Group"))
    i += 2;
  if (!next_is("Pid"))
    return std::nullopt;
  i += 2;
  if (!next_is("on") || i + 1 >= t.size())
    return std::nullopt;
  const std::string host = t[i + 1];
  i += 2;
  if (!next_is("device") || i + 2 >= t.size())
    return std::nullopt;
  const int device = small_count(t[i + 1]);
  const std::string& bus = t[i + 2];
  if (rank < 0 || device < 0 || bus.size() < 2 || bus.size() > 64 || bus.front() != '[' ||
      bus.back() != ']' || host.size() > kMaxWord) {
    return std::nullopt;
  }
  std::string name;
  for (std::size_t k = i + 3; k < t.size() && name.size() <= kMaxWord; ++k)
    name += (name.empty() ? "" : " ") + t[k];
  if (name.size() > kMaxWord)
    return std::nullopt;
  return RankLine{rank, clean_text(host), device, clean_text(bus.substr(1, bus.size() - 2)),
                  clean_text(name)};
}

// "# Out of bounds values : 0 OK" -> 0; the words after a "NAME :" comment as tokens.
std::vector<std::string> after_colon(std::string_view t) {
  const std::size_t colon = t.find(':');
  return colon == std::string_view::npos ? std::vector<std::string>{}
                                         : split_whitespace(t.substr(colon + 1));
}

// The *_perf program a command line runs ("./build/all_reduce_perf", "alltoall_perf_mpi"), and
// the position of its token; nullopt when the line runs none.
std::optional<std::size_t> program_token(const std::vector<std::string>& tokens) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!nccl_case_from_program(tokens[i]).empty())
      return i;
  }
  return std::nullopt;
}

} // namespace cb::nccl_tests
