#include "slurm/shell_word.hpp"

namespace cb {

std::string quote_shell_word(std::string_view word) {
  std::string quoted = "'";
  quoted.reserve(word.size() + 2);
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

} // namespace cb
