#pragma once
// A whole file as text, for every reader of the project's inputs (results, specs, imports).
#include <string>

namespace cb {

// InputError "PATH: cannot open: REASON" when it cannot be read, "PATH: is a directory, not a
// file" for a directory (which opens and reads as nothing on Linux).
std::string read_text_file(const std::string& path);
// The directory check alone, for readers that stream the file themselves.
void refuse_directory(const std::string& path);

} // namespace cb
