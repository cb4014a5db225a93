#pragma once
// A whole file as text, for every reader of the project's inputs (results, specs, imports).
#include <sys/types.h>

#include <cstddef>
#include <string>

#include "core/unique_fd.hpp"

namespace cb {

// "a directory", "a character device", "a block device", "a FIFO", "a socket", else "not a regular
// file": what a path is, for messages that refuse it.
const char* file_kind_name(mode_t mode);

// The most read from a pipe (a regular file is read whatever its size): a results file of a
// 1,024-node run is under 1 GiB, and `yes | clusterbench fit /dev/stdin` must end.
inline constexpr std::size_t kMaxStreamedInputBytes = std::size_t{2} << 30;

// A file read in chunks, for a parser that takes its text as it comes (the results loader: a
// whole cluster's file is not held as text beside the records it becomes). Opening checks and
// refuses as read_text_file does.
class TextFileStream {
public:
  explicit TextFileStream(const std::string& path);
  // Up to `room` next bytes into `where`; 0 at the end. InputError on a read error, or past
  // kMaxStreamedInputBytes from a pipe.
  std::size_t read(char* where, std::size_t room);
  // A regular file's size when opened (0 for a pipe or an empty file).
  std::size_t size_hint() const { return size_hint_; }

private:
  std::string path_;
  UniqueFd fd_;
  bool regular_ = false;
  std::size_t size_hint_ = 0;
  std::size_t used_ = 0;
};

// InputError "PATH: cannot open: REASON" when it cannot be read, "PATH: is a directory, not a
// file" for a directory (which opens and reads as nothing on Linux), and likewise for a device or
// a socket (/dev/zero never ends). A FIFO without a writer reads as empty instead of waiting.
std::string read_text_file(const std::string& path);

} // namespace cb
