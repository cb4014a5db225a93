#include "results/json_file.hpp"

#include <algorithm>

#include "core/text_file.hpp"

namespace cb {
namespace {

// The deepest nesting of arrays and objects in `text`, stopping as soon as it passes `limit`; a
// linear scan that skips strings (brackets inside them do not count).
int nesting_depth(const std::string& text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
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

void check_json_depth(const std::string& text, const std::string& source) {
  if (nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    throw InputError(source + ": nested deeper than " + std::to_string(kMaxJsonDepth) +
                     " levels, which no file clusterbench reads is");
  }
}

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
  check_json_depth(text, source);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // parse_error for bad syntax, out_of_range for a number past double's range (1e400).
    throw not_valid_json(source, e);
  }
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json_text(read_text_file(path), path);
}

} // namespace cb
