#include "cuda/storage_to_gpu.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"
#include "cuda/staging_schedule.hpp"

namespace cb::cuda {
namespace {

constexpr char kMagic[8] = {'C', 'B', 'G', 'P', 'U', 'R', 'D', '1'};
constexpr std::size_t kChunk = 16u << 20;

struct Header {
  char magic[8];
  std::uint64_t data_bytes;
  std::uint64_t file_id;
};

// A file descriptor that closes itself.
class Fd {
public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

private:
  int fd_;
};

std::string errno_text() {
  return std::strerror(errno);
}

bool header_matches(int fd, std::uint64_t data_bytes, std::uint64_t file_id) {
  Header h{};
  if (::pread(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h))
    return false;
  return std::memcmp(h.magic, kMagic, sizeof kMagic) == 0 && h.data_bytes == data_bytes &&
         h.file_id == file_id;
}

} // namespace

std::uint64_t pattern_word(std::uint64_t file_id, std::uint64_t w) {
  std::uint64_t x = w + file_id * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void fill_pattern(void* dst, std::uint64_t file_id, std::uint64_t offset, std::size_t bytes) {
  auto* words = static_cast<std::uint64_t*>(dst);
  const std::uint64_t first = offset / 8;
  for (std::size_t i = 0; i < bytes / 8; ++i)
    words[i] = pattern_word(file_id, first + i);
}

ReadFile prepare_read_file(const std::string& path, std::uint64_t data_bytes,
                           std::uint64_t file_id) {
  ReadFile file{path, data_bytes, file_id};
  // O_NOFOLLOW: never write through a link planted in the directory.
  Fd existing(::open(path.c_str(), O_RDONLY | O_NOFOLLOW));
  if (existing.get() >= 0) {
    if (header_matches(existing.get(), data_bytes, file_id))
      return file;
    Header h{};
    const bool ours = ::pread(existing.get(), &h, sizeof h, 0) == static_cast<ssize_t>(sizeof h) &&
                      std::memcmp(h.magic, kMagic, sizeof kMagic) == 0;
    if (!ours) {
      throw InputError("--storage-dir: " + path +
                       " exists and is not a clusterbench file; "
                       "refusing to overwrite it");
    }
  } else if (errno == ELOOP) {
    throw InputError("--storage-dir: " + path + " is a symbolic link; refusing to follow it");
  }
  struct statvfs fs {};
  const std::string dir = path.substr(0, path.find_last_of('/') + 1);
  if (::statvfs(dir.empty() ? "." : dir.c_str(), &fs) == 0) {
    const std::uint64_t free_bytes = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
    if (free_bytes < data_bytes + kHeaderBytes) {
      throw InputError("--storage-dir: " + dir + " has " + format_size(free_bytes) +
                       " free; the GPU storage read needs " +
                       format_size(data_bytes + kHeaderBytes));
    }
  }
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644));
  if (fd.get() < 0)
    CB_RUN_ERROR("cannot create " + path + ": " + errno_text());
  std::vector<std::uint64_t> chunk(kChunk / 8);
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.data_bytes = data_bytes;
  h.file_id = file_id;
  std::vector<char> header(kHeaderBytes, 0);
  std::memcpy(header.data(), &h, sizeof h);
  // The header goes last, so a file cut short by a crash is never taken as complete.
  for (std::uint64_t done = 0; done < data_bytes;) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, data_bytes - done));
    fill_pattern(chunk.data(), file_id, done, n);
    if (::pwrite(fd.get(), chunk.data(), n, static_cast<off_t>(kHeaderBytes + done)) !=
        static_cast<ssize_t>(n)) {
      CB_RUN_ERROR("cannot write " + path + ": " + errno_text());
    }
    done += n;
  }
  if (::pwrite(fd.get(), header.data(), kHeaderBytes, 0) != static_cast<ssize_t>(kHeaderBytes) ||
      ::fsync(fd.get()) != 0) {
    CB_RUN_ERROR("cannot write " + path + ": " + errno_text());
  }
  return file;
}

StorageToGpu::StorageToGpu(const ReadFile& file, std::size_t block_bytes, int device,
                           cudaStream_t stream, bool buffered)
    : file_(file), block_(block_bytes), blocks_(static_cast<int>(file.data_bytes / block_bytes)),
      device_(device), stream_(stream), direct_(!buffered) {
  if (block_ == 0 || block_ % 4096 != 0) {
    throw InputError("--block-sizes: " + std::to_string(block_bytes) +
                     " is not a multiple of 4096 (O_DIRECT reads need aligned blocks)");
  }
  if (blocks_ < 2) {
    throw InputError("--file-bytes: the file must hold at least two blocks of " +
                     format_size(block_bytes));
  }
  if (direct_) {
    fd_ = ::open(file.path.c_str(), O_RDONLY | O_DIRECT | O_NOFOLLOW);
    if (fd_ < 0 && errno == EINVAL) {
      direct_ = false;
      note_ = "the filesystem refused O_DIRECT: buffered reads, pages dropped before each pass";
    }
  } else {
    note_ = "buffered reads (--buffered), pages dropped before each pass";
  }
  if (fd_ < 0)
    fd_ = ::open(file.path.c_str(), O_RDONLY | O_NOFOLLOW);
  if (fd_ < 0)
    CB_RUN_ERROR("cannot open " + file.path + ": " + errno_text());
  DeviceScope scope(device);
  // Events belong to the device current at creation: made here, on the one the copies run on.
  for (auto& event : copied_)
    event.emplace();
  for (auto& buffer : staging_)
    buffer = HostMemory(block_, true);
  target_ = DeviceMemory(bytes_per_pass());
}

StorageToGpu::~StorageToGpu() {
  cudaStreamSynchronize(stream_);
  if (fd_ >= 0)
    ::close(fd_);
}

void StorageToGpu::read_block(int block, void* dst) {
  const off_t offset =
      static_cast<off_t>(kHeaderBytes + static_cast<std::uint64_t>(block) * block_);
  std::size_t done = 0;
  while (done < block_) {
    const ssize_t n = ::pread(fd_, static_cast<char*>(dst) + done, block_ - done,
                              offset + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      CB_RUN_ERROR("read of " + file_.path + " at byte " + std::to_string(offset + done) +
                   " failed: " + (n == 0 ? std::string("unexpected end of file") : errno_text()));
    }
    done += static_cast<std::size_t>(n);
  }
}

double StorageToGpu::pass(bool to_gpu) {
  if (!direct_)
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
  DeviceScope scope(device_);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  if (!to_gpu) {
    for (int k = 0; k < blocks_; ++k)
      read_block(k, staging_[k % 2].get());
    return std::chrono::duration<double>(clock::now() - start).count();
  }
  for (const StagingStep& step : staging_schedule(blocks_, 2)) {
    switch (step.op) {
    case StagingOp::wait_copy:
      CB_CUDA(cudaEventSynchronize(copied_[step.buffer]->get()));
      break;
    case StagingOp::read:
      read_block(step.block, staging_[step.buffer].get());
      break;
    case StagingOp::copy:
      CB_CUDA(cudaMemcpyAsync(
          static_cast<char*>(target_.get()) + static_cast<std::size_t>(step.block) * block_,
          staging_[step.buffer].get(), block_, cudaMemcpyHostToDevice, stream_));
      copied_[step.buffer]->record(stream_);
      break;
    case StagingOp::finish:
      CB_CUDA(cudaStreamSynchronize(stream_));
      break;
    }
  }
  return std::chrono::duration<double>(clock::now() - start).count();
}

std::string StorageToGpu::verify() {
  // A pass of its own onto a poisoned target: memory freed by an earlier reader of the same file
  // may come back holding the very pattern expected, and would pass a copy that never happened.
  {
    DeviceScope scope(device_);
    CB_CUDA(cudaMemsetAsync(target_.get(), 0xA5, bytes_per_pass(), stream_));
    CB_CUDA(cudaStreamSynchronize(stream_));
  }
  pass(true);
  std::vector<std::uint64_t> got(kChunk / 8), want(kChunk / 8);
  for (std::uint64_t done = 0; done < bytes_per_pass();) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, bytes_per_pass() - done));
    CB_CUDA(cudaMemcpy(got.data(), static_cast<const char*>(target_.get()) + done, n,
                       cudaMemcpyDeviceToHost));
    fill_pattern(want.data(), file_.file_id, done, n);
    if (std::memcmp(got.data(), want.data(), n) != 0) {
      return "the GPU copy of " + file_.path + " differs from the file's pattern in the " +
             format_size(kChunk) + " chunk at byte " + std::to_string(done);
    }
    done += n;
  }
  return {};
}

} // namespace cb::cuda
