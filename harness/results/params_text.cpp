#include "results/params_text.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "core/units.hpp"

namespace cb {
namespace {

// A key names a size in bytes when "bytes" is one of its words: a key that merely contains the
// letters ("io_kbytes", in KiB) would print a wrong size.
bool names_bytes(std::string_view key) {
  std::size_t start = 0;
  while (start <= key.size()) {
    const std::size_t end = std::min(key.find('_', start), key.size());
    if (key.substr(start, end - start) == "bytes")
      return true;
    start = end + 1;
  }
  return false;
}

std::string shown_value(const std::string& key, const nlohmann::json& value) {
  if (value.is_string())
    return key + "=" + value.get<std::string>();
  if (key == "in_place" && value.is_boolean())
    return value.get<bool>() ? "in-place" : "out-of-place";
  // Records read from a file hold non-negative integers as unsigned, params built in code as
  // signed: both are sizes.
  const bool non_negative_integer =
      value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
  if (non_negative_integer && names_bytes(key))
    return key + "=" + format_size(value.get<std::uint64_t>());
  return key + "=" + value.dump();
}

} // namespace

std::string describe_params(const nlohmann::json& params) {
  std::string text;
  if (!params.is_object())
    return text;
  for (const auto& [key, value] : params.items())
    text += (text.empty() ? "" : " ") + shown_value(key, value);
  return text;
}

} // namespace cb
