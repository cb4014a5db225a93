#pragma once
// Storage reads into pinned host buffers and on to the GPU (storage -> CPU -> GPU, gdsio's second
// mode): the read of block k+1 overlaps the copy of block k (staging_schedule.hpp). The same file
// read into pinned memory alone gives the "to host" figure, so the cost of the GPU hop shows.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cuda/cuda_handles.hpp"

namespace cb::cuda {

// The 64-bit word at word index w of file `file_id`'s data: a hash, so a misplaced or stale block
// cannot pass verification.
std::uint64_t pattern_word(std::uint64_t file_id, std::uint64_t w);
// Fills bytes [offset, offset + bytes) of the data with the pattern (offset, bytes multiples of 8).
void fill_pattern(void* dst, std::uint64_t file_id, std::uint64_t offset, std::size_t bytes);

// A file of ours: a 4 KiB header (magic, data bytes, file id) then the data.
constexpr std::size_t kHeaderBytes = 4096;
struct ReadFile {
  std::string path;
  std::uint64_t data_bytes = 0;
  std::uint64_t file_id = 0;
};
// Creates the file, or reuses it when its header matches. A file there without our header is not
// touched: InputError naming it. Checks free space (statvfs) before writing.
ReadFile prepare_read_file(const std::string& path, std::uint64_t data_bytes,
                           std::uint64_t file_id);

class StorageToGpu {
public:
  // buffered: read through the page cache (dropping the file's pages before each pass) instead of
  // O_DIRECT; also chosen when the filesystem refuses O_DIRECT (note() says so).
  StorageToGpu(const ReadFile& file, std::size_t block_bytes, int device, cudaStream_t stream,
               bool buffered);
  ~StorageToGpu();
  StorageToGpu(const StorageToGpu&) = delete;
  StorageToGpu& operator=(const StorageToGpu&) = delete;
  // Seconds for one pass over the file: into pinned buffers only, or on to the GPU.
  double pass(bool to_gpu);
  // One untimed pass to the GPU onto a poisoned target, checked against the file's pattern;
  // empty when right.
  std::string verify();
  std::uint64_t bytes_per_pass() const { return static_cast<std::uint64_t>(blocks_) * block_; }
  bool direct() const { return direct_; }
  std::string note() const { return note_; }

private:
  void read_block(int block, void* dst);
  ReadFile file_;
  std::size_t block_;
  int blocks_;
  int device_;
  cudaStream_t stream_;
  int fd_ = -1;
  bool direct_ = true;
  std::string note_;
  HostMemory staging_[2];
  std::optional<Event> copied_[2]; // made in the constructor, on the copies' device
  DeviceMemory target_;
};

} // namespace cb::cuda
