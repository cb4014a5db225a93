#pragma once
// One rank's checkpoint shard: the training state it saves, held in memory in the storage family's
// self-checking 4 KiB chunks (storage/block_format.hpp), and its file, rewritten as a checkpoint
// is saved: the old one dropped, the new one written block by block and fsync'd.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "storage/io_memory.hpp"
#include "storage/storage_dir.hpp"

namespace cb {

// Host memory for a shard (storage/io_memory.hpp: 4 KiB aligned, in 2 MiB pages from 256 KiB
// up where the kernel gives them), freed with free().
using AlignedBytes = IoMemory;
AlignedBytes aligned_bytes(std::uint64_t bytes);

// The shard's bytes as the training state holds them: chunk i of rank's pattern at i * 4 KiB.
void fill_checkpoint_state(std::uint64_t seed, unsigned char* state, std::uint64_t bytes);

class CheckpointFile {
public:
  // Opens `name` in `dir`, which prepare_file has made a complete file of ours of `shard_bytes`
  // from `seed`:
  // O_DIRECT unless `buffered` (or unless the filesystem refuses it: then buffered, said in notes).
  CheckpointFile(const StorageDir& dir, const std::string& name, std::uint64_t shard_bytes,
                 std::uint64_t seed, bool buffered);
  bool direct() const { return direct_; }
  const std::vector<std::string>& notes() const { return notes_; }

  // Marks the file incomplete (before the saves: a run cut short leaves a file that is rewritten,
  // never restored from) or complete (after them), through its header; RunError on failure.
  void mark(bool complete);
  // The previous checkpoint goes (the file cut back to its header, which stays, so the file stays
  // recognisably ours): the next save extends it as it writes, as a new checkpoint file is.
  std::string drop_data();
  // The save: `state` written in blocks of `block_bytes` after the header, then fsync. Empty on
  // success, else the first error.
  std::string write(const unsigned char* state, std::size_t block_bytes);
  // The save's parts, for a state that arrives block by block (from GPU memory): `bytes` at
  // `data_offset` of the shard (after the header), then the fsync that makes it saved.
  std::string write_block(const unsigned char* bytes, std::size_t n, std::uint64_t data_offset);
  std::string sync();
  // Buffered only: drops the file's cached pages, so a restore reads the device.
  void drop_cache() const;

private:
  std::string path_;
  UniqueFd fd_;
  std::uint64_t shard_bytes_;
  std::uint64_t seed_ = 0;
  bool direct_ = true;
  std::vector<std::string> notes_;
};

} // namespace cb
