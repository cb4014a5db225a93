#include "imports/text_lines.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace cb {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> split_whitespace(std::string_view text) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > start)
      tokens.emplace_back(text.substr(start, i - start));
  }
  return tokens;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

std::string_view strip_mpi_tag(std::string_view line) {
  // "[1,0]<stdout>:" or "[1,0]<stderr>:" (job, rank).
  if (line.size() < 4 || line[0] != '[')
    return line;
  const std::size_t close = line.find(']');
  if (close == std::string_view::npos)
    return line;
  for (std::size_t i = 1; i < close; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(line[i])) && line[i] != ',')
      return line;
  }
  std::string_view rest = line.substr(close + 1);
  for (std::string_view stream : {"<stdout>:", "<stderr>:"}) {
    if (starts_with(rest, stream))
      return rest.substr(stream.size());
  }
  return line;
}

std::optional<double> parse_double(std::string_view token) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || ptr != token.data() + token.size() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<long long> parse_long(std::string_view token) {
  long long value = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || ptr != token.data() + token.size())
    return std::nullopt;
  return value;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace cb
