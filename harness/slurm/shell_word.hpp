#pragma once
// Quoting for POSIX shells, so that generated scripts pass every argument through as one word
// and never run any part of it.
#include <string>
#include <string_view>

namespace cb {

// One shell word that stands for `word` exactly: 'word', with each ' written as '\'' (close the
// quotes, an escaped quote, reopen). Inside single quotes no shell expands anything.
std::string quote_shell_word(std::string_view word);

} // namespace cb
