#pragma once
// Line-oriented helpers for reading other tools' text output.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"     // shown: text from a file as a message may echo it
#include "core/text_file.hpp" // read_text_file

namespace cb {

// Lines without their terminators ("\n" or "\r\n").
std::vector<std::string> split_lines(const std::string& text);
// Calls `each(number, line)` for every line (numbered from 1, terminators removed) without
// copying the text: memory stays that of the file however many lines it has.
void for_each_line(std::string_view text,
                   const std::function<void(std::size_t, std::string_view)>& each);
std::vector<std::string> split_whitespace(std::string_view text);
std::string_view trim(std::string_view text);
// Removes the "[1,0]<stdout>:" prefix Open MPI's --tag-output puts on every line.
std::string_view strip_mpi_tag(std::string_view line);
// Removes what launchers and log collectors put in front of a tool's line, as often as they are
// stacked: Open MPI's "[1,0]<stdout>:", srun --label's " 0: ", any "[...]" group (wrappers'
// "[node1:3]", "[2025-06-01 10:00:00]"), a wrapper's "(...)" label of key=value items
// (SkyPilot's "(head, rank=0, pid=3808)", Ray's "(pid=4242)"), an ISO 8601 timestamp, and a
// "host:" or "host:rank:"
// word. A word is removed only when what follows is the start of the tool's own output (`keep`
// says so), so "Warning: ..." stays as it is.
std::string_view strip_launcher_prefix(std::string_view line,
                                       const std::function<bool(std::string_view)>& keep);
// A Markdown code fence ("```", "```text", "~~~"): the table was pasted into a document.
bool is_code_fence(std::string_view line);
// A strictly parsed number (the whole token), or nullopt.
std::optional<double> parse_double(std::string_view token);
std::optional<long long> parse_long(std::string_view token);
// The file name without directories.
std::string base_name(const std::string& path);
// Text from a file as it may be stored in a results file (valid UTF-8, no control bytes).
std::string clean_text(std::string_view text);

} // namespace cb
