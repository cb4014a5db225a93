#include "imports/text_lines.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace cb {
namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

std::string_view ltrim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  return text;
}

// Digits at `at`: how many (0 when none).
std::size_t digits_at(std::string_view s, std::size_t at) {
  std::size_t n = 0;
  while (at + n < s.size() && is_digit(s[at + n]))
    ++n;
  return n;
}

// "HH:MM:SS" with an optional ".fraction" or ",fraction" at `at`; its length, or 0.
std::size_t clock_at(std::string_view s, std::size_t at) {
  if (digits_at(s, at) != 2 || at + 8 > s.size() || s[at + 2] != ':' || digits_at(s, at + 3) != 2 ||
      s[at + 5] != ':' || digits_at(s, at + 6) != 2) {
    return 0;
  }
  std::size_t n = 8;
  if (at + n < s.size() && (s[at + n] == '.' || s[at + n] == ',') && digits_at(s, at + n + 1) > 0)
    n += 1 + digits_at(s, at + n + 1);
  return n;
}

// An ISO 8601 date-time ("2025-06-01T10:00:00.123Z", "2025-06-01 10:00:00+02:00") or a bare clock
// ("10:00:00.5") at the start of `s`; its length, or 0.
std::size_t timestamp_length(std::string_view s) {
  std::size_t n = 0;
  if (digits_at(s, 0) == 4 && s.size() >= 11 && s[4] == '-' && digits_at(s, 5) == 2 &&
      s[7] == '-' && digits_at(s, 8) == 2 && (s[10] == 'T' || s[10] == ' ')) {
    const std::size_t clock = clock_at(s, 11);
    if (clock == 0)
      return 0;
    n = 11 + clock;
  } else {
    n = clock_at(s, 0);
    if (n == 0)
      return 0;
  }
  if (n < s.size() && s[n] == 'Z') {
    ++n;
  } else if (n < s.size() && (s[n] == '+' || s[n] == '-') && digits_at(s, n + 1) == 2) {
    n += 3;
    if (n < s.size() && s[n] == ':')
      ++n;
    n += digits_at(s, n) == 2 ? 2 : 0;
  }
  // The timestamp must end the word: "10:00:00x" is not one.
  if (n < s.size() && s[n] != ' ' && s[n] != '\t' && s[n] != ':' && s[n] != ']')
    return 0;
  return n;
}

// A "host:" / "host:rank:" / "0:" word at the start of `s`; its length, or 0.
std::size_t label_word_length(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && !std::isspace(static_cast<unsigned char>(s[n])))
    ++n;
  if (n < 2 || n > 128 || s[n - 1] != ':')
    return 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const char c = s[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' &&
        c != ':') {
      return 0;
    }
  }
  return n;
}

// A wrapper's "(...)" label at the start of `s` (SkyPilot's "(head, rank=0, pid=3808)" and
// "(worker1, rank=1, pid=2845, ip=10.0.0.5)", Ray's "(pid=4242)"): items separated by commas or
// spaces, each a word or a key=value, at least one of them a key=value, so that a tool's own
// "(B)" or "(elements)" is never taken for one. Its length with the closing parenthesis, or 0.
std::size_t wrapper_label_length(std::string_view s) {
  if (s.empty() || s[0] != '(')
    return 0;
  const std::size_t close = s.find(')');
  if (close == std::string_view::npos || close > 160)
    return 0;
  bool key_value = false;
  for (std::size_t i = 1; i < close; ++i) {
    const char c = s[i];
    if (c == '=') {
      key_value = true;
    } else if (!std::isalnum(static_cast<unsigned char>(c)) && c != ',' && c != ' ' && c != '.' &&
               c != '_' && c != '-' && c != ':') {
      return 0;
    }
  }
  if (!key_value ||
      (close + 1 < s.size() && !std::isspace(static_cast<unsigned char>(s[close + 1]))))
    return 0;
  return close + 1;
}

} // namespace

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  for_each_line(text, [&](std::size_t, std::string_view line) { lines.emplace_back(line); });
  return lines;
}

void for_each_line(std::string_view text,
                   const std::function<void(std::size_t, std::string_view)>& each) {
  std::size_t start = 0;
  std::size_t number = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    each(++number, line);
    start = end + 1;
  }
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
  text = ltrim(text);
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
    if (!is_digit(line[i]) && line[i] != ',')
      return line;
  }
  std::string_view rest = line.substr(close + 1);
  for (std::string_view stream : {"<stdout>:", "<stderr>:"}) {
    if (rest.starts_with(stream))
      return rest.substr(stream.size());
  }
  return line;
}

std::string_view strip_launcher_prefix(std::string_view line,
                                       const std::function<bool(std::string_view)>& keep) {
  std::string_view s = ltrim(line);
  // Each pass removes one layer; a line has a handful at most, so the bound only stops a
  // pathological line from costing more than its length.
  for (int layer = 0; layer < 8 && !s.empty(); ++layer) {
    if (s[0] == '[') {
      const std::size_t close = s.find(']');
      if (close == std::string_view::npos || close > 128)
        break;
      std::string_view rest = s.substr(close + 1);
      for (std::string_view stream : {"<stdout>:", "<stderr>:"}) {
        if (rest.starts_with(stream))
          rest.remove_prefix(stream.size());
      }
      if (!rest.empty() && rest[0] == ':')
        rest.remove_prefix(1);
      s = ltrim(rest);
      continue;
    }
    if (const std::size_t n = wrapper_label_length(s); n > 0) {
      s = ltrim(s.substr(n));
      continue;
    }
    if (const std::size_t n = timestamp_length(s); n > 0) {
      std::string_view rest = s.substr(n);
      if (!rest.empty() && (rest[0] == ':' || rest[0] == ']'))
        rest.remove_prefix(1);
      s = ltrim(rest);
      continue;
    }
    if (const std::size_t n = label_word_length(s); n > 0) {
      const std::string_view rest = ltrim(s.substr(n));
      if (!keep(rest))
        break;
      s = rest;
      continue;
    }
    break;
  }
  return s;
}

bool is_code_fence(std::string_view line) {
  const std::string_view t = trim(line);
  return t.starts_with("```") || t.starts_with("~~~");
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

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

namespace {

// At most `limit` bytes of valid UTF-8 without control bytes (those and bytes that are not UTF-8
// written as \xNN), for text kept in a results file.
std::string escaped_utf8(std::string_view text, std::size_t limit) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
    }
    bool valid = length > 1 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    std::string piece;
    if (length > 1 && valid) {
      piece = std::string(text.substr(i, length));
    } else if (c < 0x20 || c >= 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      piece = hex;
      length = 1;
    } else {
      piece = std::string(1, static_cast<char>(c));
      length = 1;
    }
    if (out.size() + piece.size() > limit) {
      out += "...";
      break;
    }
    out += piece;
    i += length;
  }
  return out;
}

} // namespace

std::string clean_text(std::string_view text) {
  return escaped_utf8(text, 4096);
}

} // namespace cb
