#include "storage/block_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/error.hpp"
#include "storage/io_memory.hpp"

#if defined(CB_HAVE_LIBURING)
#include <liburing.h>
#endif

namespace cb {

#if defined(CB_HAVE_LIBURING)
struct BlockReader::Ring {
  io_uring ring{};
  bool live = false;
  ~Ring() {
    if (live)
      io_uring_queue_exit(&ring);
  }
};
#else
struct BlockReader::Ring {};
#endif

namespace {

constexpr std::size_t kAlign = 4096;
constexpr std::size_t kVerifyPiece = 1u << 20;

unsigned char* aligned_buffer(std::size_t bytes) {
  unsigned char* p = nullptr;
  try {
    p = io_memory(bytes).release(); // freed with free() by the owner
  } catch (const std::bad_alloc&) {
    CB_RUN_ERROR("cannot allocate " + std::to_string(bytes) + " bytes of read buffers");
  }
  std::memset(p, 0, bytes); // first touch outside the timed passes
  return p;
}

} // namespace

BlockReader::BlockReader(int dir_fd, const std::string& path, const std::string& name,
                         std::size_t block_bytes, int queue_depth, bool buffered)
    : path_(path + "/" + name), block_bytes_(block_bytes), queue_depth_(queue_depth),
      buffers_(nullptr, std::free) {
  const int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC;
  if (!buffered) {
    fd_ = UniqueFd(::openat(dir_fd, name.c_str(), flags | O_DIRECT));
    if (!fd_.valid() && errno == EINVAL) {
      notes_.push_back("the filesystem refused O_DIRECT (EINVAL): buffered reads, the file's pages "
                       "dropped (POSIX_FADV_DONTNEED) before each pass");
    } else if (!fd_.valid()) {
      CB_RUN_ERROR("cannot open " + path_ + ": " + std::strerror(errno));
    }
  }
  if (!fd_.valid()) {
    direct_ = false;
    fd_ = UniqueFd(::openat(dir_fd, name.c_str(), flags));
    if (!fd_.valid())
      CB_RUN_ERROR("cannot open " + path_ + ": " + std::strerror(errno));
  }
  buffers_.reset(aligned_buffer(block_bytes * static_cast<std::size_t>(queue_depth)));

#if defined(CB_HAVE_LIBURING)
  auto ring = std::make_unique<Ring>();
  const int rc = io_uring_queue_init(static_cast<unsigned>(queue_depth), &ring->ring, 0);
  if (rc == 0) {
    ring->live = true;
    ring_ = std::move(ring);
    engine_ = "io_uring";
  } else {
    notes_.push_back(std::string("io_uring_queue_init failed (") + std::strerror(-rc) +
                     "): pread, one read at a time" +
                     (queue_depth > 1
                          ? ", so queue depth " + std::to_string(queue_depth) + " is not reached"
                          : ""));
  }
#else
  notes_.push_back("built without liburing: pread, one read at a time");
#endif
}

BlockReader::~BlockReader() = default;

void BlockReader::use_pread() {
  ring_.reset();
  engine_ = "pread";
}

void BlockReader::drop_cache() const {
  if (!direct_)
    ::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_DONTNEED);
}

std::string BlockReader::describe(const std::string& what, std::uint64_t offset, int err) const {
  return what + " of " + path_ + " at byte " + std::to_string(offset) +
         (err ? std::string(": ") + std::strerror(err) : std::string());
}

std::string BlockReader::read_pass(const std::vector<std::uint64_t>& offsets) {
  return ring_ ? read_pass_uring(offsets, nullptr) : read_pass_pread(offsets, nullptr);
}

std::string BlockReader::read_into(const std::vector<std::uint64_t>& offsets,
                                   unsigned char* dest) {
  return ring_ ? read_pass_uring(offsets, dest) : read_pass_pread(offsets, dest);
}

std::string BlockReader::read_pass_pread(const std::vector<std::uint64_t>& offsets,
                                         unsigned char* dest) {
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    std::string error = read_block(offsets[i], dest ? dest + i * block_bytes_ : buffers_.get());
    if (!error.empty())
      return error;
  }
  return "";
}

std::string BlockReader::read_block(std::uint64_t offset, unsigned char* dest) {
  std::size_t done = 0;
  while (done < block_bytes_) {
    const ssize_t n =
        ::pread(fd_.get(), dest + done, block_bytes_ - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return describe("read error", offset, errno);
    if (n == 0)
      return describe("short read (end of file)", offset, 0);
    done += static_cast<std::size_t>(n);
  }
  return "";
}

std::string BlockReader::read_pass_uring(const std::vector<std::uint64_t>& offsets,
                                         unsigned char* dest) {
#if defined(CB_HAVE_LIBURING)
  io_uring* ring = &ring_->ring;
  // Each slot reads one block, perhaps in several pieces: a read may return fewer bytes than
  // asked without an error (POSIX allows it; FUSE and network filesystems split large reads, and
  // a disk failing mid-read returns what it read before the error), and the rest is asked for
  // again, as the pread loop does. Only a read of 0 bytes is the end of the file.
  struct Slot {
    std::size_t block = 0;
    std::size_t done = 0;
  };
  std::vector<Slot> slots(static_cast<std::size_t>(queue_depth_));
  std::size_t next = 0;
  int in_flight = 0;
  std::string error;
  auto submit_rest = [&](std::size_t slot) {
    const Slot& s = slots[slot];
    unsigned char* target =
        dest ? dest + s.block * block_bytes_ : buffers_.get() + slot * block_bytes_;
    io_uring_sqe* sqe = io_uring_get_sqe(ring);
    io_uring_prep_read(sqe, fd_.get(), target + s.done,
                       static_cast<unsigned>(block_bytes_ - s.done), offsets[s.block] + s.done);
    io_uring_sqe_set_data64(sqe, slot);
    ++in_flight;
  };
  auto queue = [&](std::size_t slot) {
    slots[slot] = {next++, 0};
    submit_rest(slot);
  };
  for (std::size_t slot = 0; slot < slots.size() && next < offsets.size(); ++slot)
    queue(slot);
  io_uring_submit(ring);
  while (in_flight > 0) {
    io_uring_cqe* cqe = nullptr;
    const int rc = io_uring_wait_cqe(ring, &cqe);
    if (rc == -EINTR)
      continue;
    if (rc < 0) // the ring itself failed: reads still in flight end with it (io_uring_queue_exit)
      return describe("io_uring_wait_cqe", offsets[slots[0].block], -rc);
    const auto slot = static_cast<std::size_t>(io_uring_cqe_get_data64(cqe));
    const int res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    --in_flight;
    Slot& s = slots[slot];
    const std::uint64_t at = offsets[s.block] + s.done;
    if (error.empty() && res < 0)
      error = describe("read error", at, -res);
    if (error.empty() && res == 0)
      error = describe("short read (end of file)", at, 0);
    if (error.empty()) {
      s.done += static_cast<std::size_t>(res);
      if (s.done < block_bytes_) {
        submit_rest(slot);
        io_uring_submit(ring);
        continue;
      }
    }
    // After an error the reads in flight are drained (their buffers are ours) and no more queued.
    if (error.empty() && next < offsets.size()) {
      queue(slot);
      io_uring_submit(ring);
    }
  }
  return error;
#else
  return read_pass_pread(offsets, dest);
#endif
}

ChunkCheck BlockReader::verify_all(std::uint64_t data_bytes, std::uint64_t seed,
                                   std::string* error) {
  drop_cache();
  std::unique_ptr<unsigned char, void (*)(void*)> piece(aligned_buffer(kVerifyPiece), std::free);
  ChunkCheck total;
  for (std::uint64_t done = 0; done < data_bytes;) {
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kVerifyPiece, data_bytes - done));
    const std::uint64_t offset = kStorageHeaderBytes + done;
    std::size_t got = 0;
    while (got < n) {
      const ssize_t r =
          ::pread(fd_.get(), piece.get() + got, n - got, static_cast<off_t>(offset + got));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0) {
        *error = describe(r < 0 ? "read error" : "short read (end of file)", offset + got,
                          r < 0 ? errno : 0);
        return total;
      }
      got += static_cast<std::size_t>(r);
    }
    const ChunkCheck part = check_storage_chunks(seed, done / kStorageChunkBytes, piece.get(), n);
    if (part.bad_chunks > 0 && total.bad_chunks == 0) {
      total.first_bad_chunk = part.first_bad_chunk;
      total.first_problem =
          path_ + ": 4 KiB block at byte " +
          std::to_string(kStorageHeaderBytes + part.first_bad_chunk * kStorageChunkBytes) + ": " +
          part.first_problem;
    }
    total.bad_chunks += part.bad_chunks;
    done += n;
  }
  return total;
}

} // namespace cb
