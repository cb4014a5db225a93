#include "core/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/unique_fd.hpp"

namespace cb {

const char* file_kind_name(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

namespace {

// What may not be read as an input file, or nullptr. A device (/dev/zero, /dev/urandom) never
// ends: read to its end, it would fill memory before anything else went wrong.
const char* unreadable_kind(mode_t mode) {
  if (S_ISDIR(mode) || S_ISCHR(mode) || S_ISBLK(mode) || S_ISSOCK(mode))
    return file_kind_name(mode);
  return nullptr;
}

void refuse_kind(const std::string& path, mode_t mode) {
  if (const char* kind = unreadable_kind(mode))
    throw InputError(path + ": is " + kind + ", not a file");
}

void refuse_by_name(const std::string& path) {
  if (struct stat info{}; ::stat(path.c_str(), &info) == 0)
    refuse_kind(path, info.st_mode);
}

} // namespace

TextFileStream::TextFileStream(const std::string& path) : path_(path) {
  refuse_by_name(path); // before open: opening a device may already do something
  // Non-blocking open: a FIFO nobody writes to opens at once (and then reads as empty) instead of
  // waiting forever for a writer. Reads block again once open, so a pipe with a writer is read
  // to its end as usual (process substitution, `<(zcat results.json.gz)`).
  fd_ = UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd_.valid())
    throw InputError(path + ": cannot open: " + std::strerror(errno));
  const int flags = ::fcntl(fd_.get(), F_GETFL);
  if (flags >= 0)
    ::fcntl(fd_.get(), F_SETFL, flags & ~O_NONBLOCK);
  struct stat info {};
  if (::fstat(fd_.get(), &info) != 0)
    throw InputError(path + ": cannot read: " + std::strerror(errno));
  refuse_kind(path, info.st_mode); // replaced between the check and the open
  regular_ = S_ISREG(info.st_mode);
  size_hint_ = regular_ && info.st_size > 0 ? static_cast<std::size_t>(info.st_size) : 0;
}

std::size_t TextFileStream::read(char* where, std::size_t room) {
  for (;;) {
    const ssize_t n = ::read(fd_.get(), where, room);
    if (n >= 0) {
      used_ += static_cast<std::size_t>(n);
      if (!regular_ && used_ > kMaxStreamedInputBytes) {
        throw InputError(path_ + ": more than " + std::to_string(kMaxStreamedInputBytes >> 30) +
                         " GiB from a pipe; save it to a file and give that");
      }
      return static_cast<std::size_t>(n);
    }
    if (errno != EINTR)
      throw InputError(path_ + ": cannot read: " + std::strerror(errno));
  }
}

std::string read_text_file(const std::string& path) {
  TextFileStream file(path);
  std::string text;
  std::size_t used = 0;
  // A regular file straight into a string of its size (held once, not twice as through a
  // stream); then, as for a pipe, whatever else there is (a file still growing) in chunks.
  if (file.size_hint() > 0) {
    text.resize(file.size_hint());
    while (used < text.size()) {
      const std::size_t n = file.read(text.data() + used, text.size() - used);
      if (n == 0)
        break;
      used += n;
    }
    text.resize(used);
  }
  std::vector<char> chunk(std::size_t{1} << 16);
  while (const std::size_t n = file.read(chunk.data(), chunk.size()))
    text.append(chunk.data(), n);
  return text;
}

} // namespace cb
