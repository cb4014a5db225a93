#include "results/json_file.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include "core/text_file.hpp"
#include "results/json_tree_builder.hpp"

namespace cb {
namespace {

// The deepest nesting of arrays and objects in `text`, stopping as soon as it passes `limit`; a
// linear scan that skips strings (brackets inside them do not count). A string is skipped to its
// closing quote with memchr, the quote escaped when an odd run of backslashes precedes it: a
// large file is mostly strings and numbers, which a byte-at-a-time loop spent a few % of a load on.
int nesting_depth(const std::string& text, int limit) {
  static const auto structural = [] {
    std::array<bool, 256> table{};
    for (unsigned char c : std::string_view("\"[]{}"))
      table[c] = true;
    return table;
  }();
  int depth = 0;
  int deepest = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (!structural[c]) {
      ++p;
      continue;
    }
    if (c == '"') {
      const char* open = p;
      const char* q = p + 1;
      for (;;) {
        q = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(end - q)));
        if (!q)
          return deepest; // the text ends inside the string
        std::size_t backslashes = 0;
        for (const char* b = q - 1; b > open && *b == '\\'; --b)
          ++backslashes;
        if (backslashes % 2 == 0)
          break;
        ++q;
      }
      p = q + 1;
      continue;
    }
    if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return deepest;
    } else {
      --depth;
    }
    ++p;
  }
  return deepest;
}

} // namespace

InputError not_valid_json(const std::string& source, const nlohmann::json::exception& e) {
  return InputError(source + ": not valid JSON (" + json_error_reason(e) + ")");
}

std::string json_error_reason(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (auto pos = what.find("] "); pos != std::string::npos)
    what = what.substr(pos + 2);
  return shown(what, 160);
}

InputError nested_too_deep(const std::string& source) {
  return InputError(source + ": nested deeper than " + std::to_string(kMaxJsonDepth) +
                    " levels, which no file clusterbench reads is");
}

void check_json_depth(const std::string& text, const std::string& source) {
  if (nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    throw nested_too_deep(source);
}

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
  return parse_json_text(text, source, RepeatedKeyMerge());
}

nlohmann::json parse_json_text(const std::string& text, const std::string& source,
                               const RepeatedKeyMerge& merge) {
  check_json_depth(text, source);
  nlohmann::json document;
  JsonTreeBuilder builder(document, source, merge);
  try {
    nlohmann::json::sax_parse(text, &builder);
  } catch (const nlohmann::json::exception& e) {
    // parse_error for bad syntax, out_of_range for a number past double's range (1e400).
    throw not_valid_json(source, e);
  }
  return document;
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json_text(read_text_file(path), path);
}

} // namespace cb
