#pragma once
// Line-oriented helpers for reading other tools' text output.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text_file.hpp" // read_text_file

namespace cb {

// Longer than any line nccl-tests or OSU print: such a line is reported, never handed to
// std::regex, whose matcher recurses once per character and would overflow the stack.
inline constexpr std::size_t kLongestToolLine = 4096;

// Lines without their terminators ("\n" or "\r\n").
std::vector<std::string> split_lines(const std::string& text);
std::vector<std::string> split_whitespace(std::string_view text);
std::string_view trim(std::string_view text);
// Removes the "[1,0]<stdout>:" prefix Open MPI's --tag-output puts on every line.
std::string_view strip_mpi_tag(std::string_view line);
// A strictly parsed number (the whole token), or nullopt.
std::optional<double> parse_double(std::string_view token);
std::optional<long long> parse_long(std::string_view token);
bool starts_with(std::string_view text, std::string_view prefix);
// The file name without directories.
std::string base_name(const std::string& path);

} // namespace cb
