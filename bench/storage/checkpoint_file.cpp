#include "storage/checkpoint_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/error.hpp"
#include "storage/block_format.hpp"

namespace cb {

AlignedBytes aligned_bytes(std::uint64_t bytes) {
  return io_memory(bytes);
}

void fill_checkpoint_state(std::uint64_t seed, unsigned char* state, std::uint64_t bytes) {
  for (std::uint64_t off = 0; off + kStorageChunkBytes <= bytes; off += kStorageChunkBytes)
    fill_storage_chunk(seed, off / kStorageChunkBytes, state + off);
}

CheckpointFile::CheckpointFile(const StorageDir& dir, const std::string& name,
                               std::uint64_t shard_bytes, std::uint64_t seed, bool buffered)
    : path_(dir.file_path(name)), shard_bytes_(shard_bytes), seed_(seed) {
  const int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC;
  if (!buffered) {
    fd_ = UniqueFd(::openat(dir.fd(), name.c_str(), flags | O_DIRECT));
    if (!fd_.valid() && errno == EINVAL) {
      notes_.push_back("the filesystem refused O_DIRECT (EINVAL): buffered writes, fsync'd, and "
                       "the file's pages dropped before each restore");
    }
  }
  if (!fd_.valid()) {
    direct_ = false;
    fd_ = UniqueFd(::openat(dir.fd(), name.c_str(), flags));
  }
  if (!fd_.valid())
    CB_RUN_ERROR("cannot open " + path_ + ": " + std::strerror(errno));
  // prepare_file made it ours a moment ago; a file swapped in since is not written.
  struct stat st {};
  if (::fstat(fd_.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
      static_cast<std::uint64_t>(st.st_size) != storage_file_total_bytes(shard_bytes)) {
    CB_RUN_ERROR(path_ + " changed under the run: not written");
  }
}

void CheckpointFile::mark(bool complete) {
  const AlignedBytes header = aligned_bytes(kStorageHeaderBytes);
  encode_storage_header({shard_bytes_, seed_, complete}, header.get());
  if (::pwrite(fd_.get(), header.get(), kStorageHeaderBytes, 0) !=
          static_cast<ssize_t>(kStorageHeaderBytes) ||
      ::fdatasync(fd_.get()) != 0) {
    CB_RUN_ERROR("writing the header of " + path_ + ": " + std::strerror(errno));
  }
}

std::string CheckpointFile::drop_data() {
  // Cut back to the header: the save extends the file as it writes, as a checkpoint's new file is
  // (torch.save, torch.distributed.checkpoint) and as fio's is.
  if (::ftruncate(fd_.get(), static_cast<off_t>(kStorageHeaderBytes)) != 0)
    return "truncating " + path_ + ": " + std::strerror(errno);
  // Committed now, so the save's fsync does not also pay for freeing the old blocks.
  if (::fsync(fd_.get()) != 0)
    return "fsync of " + path_ + ": " + std::strerror(errno);
  return "";
}

std::string CheckpointFile::write(const unsigned char* state, std::size_t block_bytes) {
  for (std::uint64_t done = 0; done < shard_bytes_;) {
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(block_bytes, shard_bytes_ - done));
    if (std::string error = write_block(state + done, n, done); !error.empty())
      return error;
    done += n;
  }
  return sync();
}

std::string CheckpointFile::write_block(const unsigned char* bytes, std::size_t n,
                                        std::uint64_t data_offset) {
  for (std::size_t done = 0; done < n;) {
    const auto offset = static_cast<off_t>(kStorageHeaderBytes + data_offset + done);
    const ssize_t w = ::pwrite(fd_.get(), bytes + done, n - done, offset);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      return "writing " + path_ + " at byte " + std::to_string(offset) + ": " +
             std::strerror(w < 0 ? errno : EIO);
    }
    done += static_cast<std::size_t>(w);
  }
  return "";
}

std::string CheckpointFile::sync() {
  // Saved means on the device: a checkpoint still in the page cache is lost with the node.
  if (::fsync(fd_.get()) != 0)
    return "fsync of " + path_ + ": " + std::strerror(errno);
  return "";
}

void CheckpointFile::drop_cache() const {
  if (!direct_)
    ::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_DONTNEED);
}

} // namespace cb
