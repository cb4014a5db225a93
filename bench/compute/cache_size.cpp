#include "compute/cache_size.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace cb {

std::uint64_t parse_cache_size(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front())))
    return 0;
  std::uint64_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  const std::string_view suffix = text.substr(i);
  if (suffix.empty())
    return value;
  if (suffix == "K")
    return value << 10;
  if (suffix == "M")
    return value << 20;
  if (suffix == "G")
    return value << 30;
  return 0;
}

std::uint64_t last_level_cache_bytes(const std::string& cache_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::uint64_t largest = 0;
  for (const auto& entry : fs::directory_iterator(cache_dir, ec)) {
    if (entry.path().filename().string().rfind("index", 0) != 0)
      continue;
    std::ifstream type_file(entry.path() / "type");
    std::string type;
    type_file >> type;
    if (type == "Instruction")
      continue;
    std::ifstream size_file(entry.path() / "size");
    std::string size;
    size_file >> size;
    largest = std::max(largest, parse_cache_size(size));
  }
  return largest;
}

std::uint64_t default_stream_array_bytes(std::uint64_t llc_bytes) {
  constexpr std::uint64_t page = 4096;
  if (llc_bytes == 0)
    return 128ull << 20;
  return (4 * llc_bytes + page - 1) / page * page;
}

} // namespace cb
