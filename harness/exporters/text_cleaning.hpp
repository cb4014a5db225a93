#pragma once
// Text from results files and specs written into other formats: host names, case names, notes.
// Both formats here must be UTF-8 and neither can carry every control byte, so what they cannot
// hold is replaced, never passed through to break the file.
#include <string>
#include <string_view>

namespace cb {

// `text` with every byte that is not part of valid UTF-8, and every control character but those
// `keep` names (C0, DEL), replaced by U+FFFD.
std::string replace_unsafe_text(std::string_view text, std::string_view keep = "");

} // namespace cb
