#pragma once
// A JSON document as block-style YAML, for manifests people read and `kubectl apply` takes. Every
// string is written double-quoted with JSON's escapes, which YAML's double-quoted scalars share,
// so no value (a "yes", a "1e3", a "#", a newline) can be read back as anything but the string it
// is; keys are written bare when they are plain words and quoted otherwise.
#include <string>

#include <nlohmann/json.hpp>

namespace cb {

std::string to_yaml(const nlohmann::ordered_json& document);

} // namespace cb
