#pragma once
// Reading a JSON document for any command: one InputError naming the file and, for a parse error,
// what nlohmann found and where (a truncated file ends in "unexpected end of input").
#include <string>

#include <nlohmann/json.hpp>

namespace cb {

// InputError "PATH: cannot open: REASON" or "PATH: not valid JSON (...)".
nlohmann::json read_json_file(const std::string& path);
// The same for text already read; `source` names it in the message.
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

} // namespace cb
