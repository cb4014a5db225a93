#include "results/json_file.hpp"

#include "core/error.hpp"
#include "core/text_file.hpp"

namespace cb {

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix; keep the position and reason.
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos)
      what = what.substr(pos + 2);
    throw InputError(source + ": not valid JSON (" + what + ")");
  }
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json_text(read_text_file(path), path);
}

} // namespace cb
