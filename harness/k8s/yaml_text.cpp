#include "k8s/yaml_text.hpp"

#include <cctype>
#include <string_view>

#include "core/error.hpp"

namespace cb {
namespace {

using nlohmann::ordered_json;

// Keys Kubernetes uses ("nvidia.com/gpu", "kueue.x-k8s.io/queue-name", "sizeLimit") are plain
// scalars in YAML; anything else, and a word YAML reads as something else, is quoted.
std::string yaml_key(const std::string& key) {
  bool plain = !key.empty() && std::isalpha(static_cast<unsigned char>(key[0]));
  for (char c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '/' && c != '-' &&
        c != '_')
      plain = false;
  }
  // YAML 1.1 readers (PyYAML among them) take these bare words for booleans or null.
  std::string lower;
  for (char c : key)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}) {
    if (lower == word)
      plain = false;
  }
  return plain ? key : ordered_json(key).dump();
}

std::string scalar(const ordered_json& value) {
  // dump() escapes control characters and writes non-ASCII as it is (valid UTF-8 in, out).
  return value.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

// A script or other multi-line text reads best as a literal block ("|"), which YAML keeps byte for
// byte when no line starts or ends with blanks, none is empty, no byte is a control character but
// the newlines, the text is UTF-8, and one newline ends it; anything else is double-quoted.
bool literal_block(const ordered_json& value) {
  if (!value.is_string())
    return false;
  const std::string& text = value.get_ref<const std::string&>();
  if (!is_utf8(text) || text.size() < 2 || text.back() != '\n' ||
      text.find('\n') == text.size() - 1)
    return false;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line(text.data() + start, end - start);
    if (line.empty() || line.front() == ' ' || line.back() == ' ')
      return false;
    for (char c : line) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f)
        return false;
    }
    start = end + 1;
  }
  return true;
}

bool empty_container(const ordered_json& value) {
  return (value.is_object() || value.is_array()) && value.empty();
}

void write(const ordered_json& value, int indent, std::string& out);

// `prefix` ("key:" or "-") then the value: inline when a scalar or empty, on the lines below
// otherwise (a mapping inside a sequence item starts on the item's own line).
void write_entry(const std::string& prefix, const ordered_json& value, int indent,
                 std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (literal_block(value)) {
    out += pad + prefix + " |\n";
    const std::string& text = value.get_ref<const std::string&>();
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t end = text.find('\n', start);
      out += pad + "  " + text.substr(start, end - start) + "\n";
      start = end + 1;
    }
    return;
  }
  if (!value.is_structured() || empty_container(value)) {
    out += pad + prefix + " " +
           (empty_container(value) ? (value.is_object() ? "{}" : "[]") : scalar(value)) + "\n";
    return;
  }
  if (prefix == "-" && value.is_object()) {
    std::string first;
    write(value, indent + 2, first);
    out += pad + "- " + first.substr(static_cast<std::size_t>(indent + 2));
    return;
  }
  out += pad + prefix + "\n";
  write(value, indent + 2, out);
}

void write(const ordered_json& value, int indent, std::string& out) {
  if (value.is_object()) {
    for (const auto& [key, member] : value.items())
      write_entry(yaml_key(key) + ":", member, indent, out);
  } else if (value.is_array()) {
    for (const auto& element : value)
      write_entry("-", element, indent, out);
  } else {
    out += std::string(static_cast<std::size_t>(indent), ' ') + scalar(value) + "\n";
  }
}

} // namespace

std::string to_yaml(const ordered_json& document) {
  std::string out;
  write(document, 0, out);
  return out;
}

} // namespace cb
