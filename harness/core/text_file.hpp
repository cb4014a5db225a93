#pragma once
// A whole file as text, for every reader of the project's inputs (results, specs, imports).
#include <string>

namespace cb {

// InputError "PATH: cannot open: REASON" when it cannot be read.
std::string read_text_file(const std::string& path);

} // namespace cb
