#include "exporters/text_cleaning.hpp"

#include "core/error.hpp"

namespace cb {

std::string replace_unsafe_text(std::string_view text, std::string_view keep) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_sequence_length(text, i);
    const bool control = byte < 0x20 || byte == 0x7F;
    if (n == 0 || (control && keep.find(text[i]) == std::string_view::npos)) {
      out += kReplacement;
      i += n == 0 ? 1 : n;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

} // namespace cb
