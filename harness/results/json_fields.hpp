#pragma once
// Reading an optional text field of a results file's JSON, where a file from another version, a
// foreign tool or a hand edit may give anything: the string, or "" when the value is not an
// object, the key is absent, or its value is not a string. A reader that must reject a wrong type
// uses its own checks (qualify/spec.cpp) instead.
#include <string>

#include <nlohmann/json.hpp>

namespace cb {

inline std::string string_or_empty(const nlohmann::json& object, const char* key) {
  if (!object.is_object())
    return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

} // namespace cb
