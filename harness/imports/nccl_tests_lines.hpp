#pragma once
// The lines of nccl-tests' text output taken one at a time: the column header, a half of a data
// row, a "# Rank" device line, a command that runs an *_perf program. The text reader
// (nccl_tests_text.cpp) puts them together.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "imports/nccl_tests_rules.hpp"

namespace cb::nccl_tests {

// Where each column sits in a data row, from the "#  size  count  type ..." header.
struct Layout {
  int size = 0, count = 1, type = 2;
  int redop = -1, root = -1; // -1: the layout has no such column (old all_gather, broadcast)
  int lead = 5;              // columns before the out-of-place group
  int group = 4;             // time algbw busbw #wrong (+ #bitdiff, i_min ... with other options)
  int trailing = 0;          // values after the in-place group (a timestamp prints as two)
  CheckColumn check = CheckColumn::wrong_count;
};

// The layout a "#  size  count  type ..." header names; nullopt when it is not one.
std::optional<Layout> layout_from_header(const std::vector<std::string>& tokens);

// The half starting at token `at` of a data row; nullopt when it is not one nccl-tests prints.
std::optional<Half> half_from(const std::vector<std::string>& t, int at, CheckColumn column);

// A count from digits; -1 when it is not one or does not fit a plausible count.
int small_count(std::string_view digits);

struct RankLine {
  int rank;
  std::string host;
  int device;
  std::string bus;
  std::string name;
};

// A "# Rank ..." line of the device list; nullopt when it is not one.
std::optional<RankLine> rank_line(std::string_view line);

// "# Out of bounds values : 0 OK" -> 0; the words after a "NAME :" comment as tokens.
std::vector<std::string> after_colon(std::string_view t);

// The *_perf program a command line runs ("./build/all_reduce_perf", "alltoall_perf_mpi"), and
// the position of its token; nullopt when the line runs none.
std::optional<std::size_t> program_token(const std::vector<std::string>& tokens);

} // namespace cb::nccl_tests
