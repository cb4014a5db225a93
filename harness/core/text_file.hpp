#pragma once
// A whole file as text, for every reader of the project's inputs (results, specs, imports).
#include <sys/types.h>

#include <cstddef>
#include <string>

namespace cb {

// "a directory", "a character device", "a block device", "a FIFO", "a socket", else "not a regular
// file": what a path is, for messages that refuse it.
const char* file_kind_name(mode_t mode);

// The most read from a pipe (a regular file is read whatever its size): a results file of a
// 1,024-node run is under 1 GiB, and `yes | clusterbench fit /dev/stdin` must end.
inline constexpr std::size_t kMaxStreamedInputBytes = std::size_t{2} << 30;

// InputError "PATH: cannot open: REASON" when it cannot be read, "PATH: is a directory, not a
// file" for a directory (which opens and reads as nothing on Linux), and likewise for a device or
// a socket (/dev/zero never ends). A FIFO without a writer reads as empty instead of waiting.
std::string read_text_file(const std::string& path);

} // namespace cb
