#include "results/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/error.hpp"

namespace cb {

AtomicFile::AtomicFile(std::string target, std::string shown_name)
    : target_(std::move(target)), shown_(std::move(shown_name)) {
  namespace fs = std::filesystem;
  const fs::path path(target_);
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(shown_ + ": directory '" + shown(dir.string(), 120) + "' does not exist");
  }
  std::string name = ".";
  name += path.filename().string();
  name += ".tmp-" + std::to_string(::getpid());
  tmp_ = (dir / name).string();
  // O_EXCL | O_NOFOLLOW: the temporary name is ours alone; one left by a crashed run of the same
  // pid is removed only when it is a regular file.
  const int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = ::open(tmp_.c_str(), flags, 0644);
  struct stat stale {};
  if (fd < 0 && errno == EEXIST && ::lstat(tmp_.c_str(), &stale) == 0 && S_ISREG(stale.st_mode) &&
      ::unlink(tmp_.c_str()) == 0) {
    fd = ::open(tmp_.c_str(), flags, 0644);
  }
  if (fd < 0)
    throw InputError(shown_ + ": cannot write (" + std::strerror(errno) + ")");
  fd_ = UniqueFd(fd);
}

AtomicFile::~AtomicFile() {
  if (!committed_ && fd_.valid())
    ::unlink(tmp_.c_str());
}

void AtomicFile::fail_write(int err) {
  fd_ = UniqueFd();
  ::unlink(tmp_.c_str());
  committed_ = true; // nothing left to remove
  throw RunError(shown_ + ": write failed (" + std::strerror(err) + ")");
}

void AtomicFile::write(std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      fail_write(errno);
    }
    done += static_cast<std::size_t>(n);
  }
  size_ += bytes.size();
}

void AtomicFile::copy_from(int source, std::uint64_t length) {
  // copy_file_range keeps the bytes in the kernel (and shares extents where the file system
  // can); where it is not supported, a buffer does the same.
  off_t in = 0;
  std::uint64_t left = length;
  while (left > 0) {
    const ssize_t n = ::copy_file_range(source, &in, fd_.get(), nullptr, left, 0);
    if (n > 0) {
      left -= static_cast<std::uint64_t>(n);
      size_ += static_cast<std::uint64_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL)
      fail_write(errno);
    break; // not supported here (or the source ended early): the buffer takes over
  }
  std::vector<char> buffer(std::size_t{1} << 20);
  while (left > 0) {
    const ssize_t n =
        ::pread(source, buffer.data(), std::min<std::uint64_t>(left, buffer.size()), in);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      fail_write(n < 0 ? errno : EIO);
    write(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    in += n;
    left -= static_cast<std::uint64_t>(n);
  }
}

UniqueFd AtomicFile::commit(Durability durability) {
  if (durability == Durability::machine_crash)
    ::fsync(fd_.get());
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    committed_ = true;
    throw InputError(shown_ + ": cannot write (" + std::strerror(err) + ")");
  }
  committed_ = true;
  return std::move(fd_);
}

} // namespace cb
