#pragma once
// Reading a JSON document for any command: one InputError naming the file and, for a parse error,
// what nlohmann found and where (a truncated file ends in "unexpected end of input").
//
// Every loader reads through here, so every loader gets the same bounds: nesting deeper than
// kMaxJsonDepth is refused before nlohmann builds anything (the DOM's copies and comparisons
// recurse on depth), a number out of double's range ("1e400") is refused as bad input, so is an
// object naming a key twice (results/json_tree_builder.hpp), and a
// nlohmann error raised while a loader reads the document (a field of the wrong type) becomes an
// InputError naming the file instead of escaping as an internal error.
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "results/json_tree_builder.hpp" // RepeatedKeyMerge

namespace cb {

// Deeper than any file clusterbench writes or reads (results nest 6 levels, specs 4).
inline constexpr int kMaxJsonDepth = 64;

// InputError "PATH: cannot open: REASON" or "PATH: not valid JSON (...)".
nlohmann::json read_json_file(const std::string& path);
// The same for text already read; `source` names it in the message.
nlohmann::json parse_json_text(const std::string& text, const std::string& source);
// Another tool's output, which may name a key twice in one object: `merge` says what it means.
nlohmann::json parse_json_text(const std::string& text, const std::string& source,
                               const RepeatedKeyMerge& merge);

// The nesting bound alone: InputError "SOURCE: nested deeper than 64 levels ..." (a linear scan,
// for a loader that parses the text itself).
void check_json_depth(const std::string& text, const std::string& source);
// That error, for a loader that counts the depth as it parses (the results loader, which never
// holds the whole text).
InputError nested_too_deep(const std::string& source);
// The error for text nlohmann could not parse: "SOURCE: not valid JSON (REASON)".
InputError not_valid_json(const std::string& source, const nlohmann::json::exception& e);

// nlohmann's message without its "[json.exception.type_error.302] " prefix, made safe to echo.
std::string json_error_reason(const nlohmann::json::exception& e);

// Runs `read` (a loader turning a parsed document into the project's types); a nlohmann error
// from inside it is bad input: InputError "SOURCE: REASON".
template <class Read>
auto reading_json(const std::string& source, Read&& read) -> decltype(read()) {
  try {
    return std::forward<Read>(read)();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": " + json_error_reason(e));
  }
}

} // namespace cb
