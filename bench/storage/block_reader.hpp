#pragma once
// Reads a rank's file block by block the way the run asks: O_DIRECT unless --buffered (or unless
// the filesystem refuses it, then buffered with the file's pages dropped before each pass), up to
// queue-depth reads in flight through io_uring (pread when io_uring cannot start, e.g. in a
// container that forbids it). What it fell back to is said in notes(), for the record.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "storage/block_format.hpp"
#include "core/unique_fd.hpp"

namespace cb {

class BlockReader {
public:
  BlockReader(int dir_fd, const std::string& path, const std::string& name, std::size_t block_bytes,
              int queue_depth, bool buffered);
  ~BlockReader();
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  bool direct() const { return direct_; }
  const std::string& engine() const { return engine_; } // "io_uring" or "pread"
  // The reader's own block buffers (queue depth x block bytes), touched at construction.
  const unsigned char* buffers() const { return buffers_.get(); }
  std::size_t buffers_bytes() const {
    return block_bytes_ * static_cast<std::size_t>(queue_depth_);
  }
  // Reads one block at a time with pread from here on. For a reader of queue depth 1 that lands
  // its blocks in the caller's memory (a checkpoint's restore): io_uring adds no concurrency
  // there, and on a FUSE mount with direct_io one kernel here answered a read that the
  // filesystem cut short with the full length, leaving the rest of the block unread (the
  // restore's data check caught it); pread returns the short count, which is continued.
  void use_pread();
  // Why the reader does not do what was asked (O_DIRECT refused, io_uring unavailable); empty if it
  // does.
  const std::vector<std::string>& notes() const { return notes_; }

  // Buffered reads only: drops the file's cached pages so the next pass reads the device.
  void drop_cache() const;
  // Reads every block at `offsets`. Empty on success, else the first error (with the offset).
  std::string read_pass(const std::vector<std::uint64_t>& offsets);
  // The same reads, each block landing in the caller's memory: block i of `offsets` at
  // dest + i * block_bytes (dest 4 KiB aligned, for O_DIRECT). For a consumer of the data, such
  // as the workload family's loader.
  std::string read_into(const std::vector<std::uint64_t>& offsets, unsigned char* dest);
  // One block at `offset` into `dest` (4 KiB aligned) with pread, short reads continued: for a
  // consumer that takes the blocks one by one (a restore through staging buffers).
  std::string read_block(std::uint64_t offset, unsigned char* dest);
  // Reads the whole data region again (untimed) and checks every chunk against `seed`.
  // A read error goes to *error; the chunk check to the result.
  ChunkCheck verify_all(std::uint64_t data_bytes, std::uint64_t seed, std::string* error);

private:
  struct Ring;
  // dest == nullptr: into the reader's own queue-depth buffers (the data is not kept).
  std::string read_pass_pread(const std::vector<std::uint64_t>& offsets, unsigned char* dest);
  std::string read_pass_uring(const std::vector<std::uint64_t>& offsets, unsigned char* dest);
  std::string describe(const std::string& what, std::uint64_t offset, int err) const;

  std::string path_;
  UniqueFd fd_;
  std::size_t block_bytes_;
  int queue_depth_;
  bool direct_ = true;
  std::string engine_ = "pread";
  std::vector<std::string> notes_;
  std::unique_ptr<Ring> ring_;
  std::unique_ptr<unsigned char, void (*)(void*)> buffers_; // queue_depth blocks, 4 KiB aligned
};

} // namespace cb
