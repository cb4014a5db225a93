#pragma once
// Parsing of the numbers users type: sizes with K/M/G suffixes, lists, durations.
// Each parser throws InputError naming the flag (or field) and what is allowed.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cb {

// "8", "4K", "1M", "2G", "64KiB", "1MB" -> bytes. K/M/G are binary (1024-based), as in nccl-tests.
std::uint64_t parse_size(std::string_view text, std::string_view flag);
// Prints a size the way nccl-tests users read it: 8, 4K, 1M (exact binary multiples), else bytes.
std::string format_size(std::uint64_t bytes);
// An amount of bytes for a reader, to one decimal in binary units: "2.0 TiB", "812 B".
std::string approximate_size(std::uint64_t bytes);
// A count as people write model sizes: 7e9, 7B, 1.5T, 350M (decimal multiples K, M, B/G, T).
double parse_count(const std::string& text, const std::string& flag);
// A link rate as NICs are sold and tools print it -> bytes per second: "400gbit", "25Gbit",
// "100mbit" (bits, decimal: tc's units), "50GB", "12.5GB/s", "800MB" (bytes, decimal). Between
// 1 Mbit/s and 100 TB/s; anything else throws InputError naming the flag.
double parse_link_rate(std::string_view text, std::string_view flag);
// A strictly parsed integer / floating-point number; the whole text must be consumed.
long long parse_integer(std::string_view text, std::string_view flag);
double parse_number(std::string_view text, std::string_view flag);
// "a,b,c" -> {"a","b","c"}; empty items rejected.
std::vector<std::string> split_list(std::string_view text, std::string_view flag);
std::string join(const std::vector<std::string>& items, std::string_view sep);

} // namespace cb
