#pragma once
// The input pipeline of the training step: a thread of its own reads each step's batch for this
// rank from its storage file (the storage family's BlockReader: O_DIRECT unless --buffered, queue
// depth reads in flight) into a ring of --prefetch buffers, running ahead of the compute by at
// most that many batches. Step s reads batch s mod (file bytes / batch bytes) of the file.
//
// What arrived is checked as it arrives: the first 4 KiB chunk of every block read (its index,
// seed and checksum; the right bytes from the right place of the right file). One chunk per block
// keeps the check's cost off the core the compute shares with the loader.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/block_reader.hpp"

namespace cb {

// File offsets of the blocks of batch `index`: the data region after the header, batch after
// batch. Pure, unit-tested.
std::vector<std::uint64_t> batch_offsets(std::uint64_t index, std::uint64_t batch_bytes,
                                         std::uint64_t block_bytes);

class BatchLoader {
public:
  // `reader` reads blocks of block_bytes; the file holds file_bytes of data from `seed`.
  BatchLoader(std::unique_ptr<BlockReader> reader, std::uint64_t file_bytes,
              std::uint64_t batch_bytes, std::uint64_t block_bytes, std::uint64_t seed, int slots);
  ~BatchLoader(); // stops the thread and joins it
  BatchLoader(const BatchLoader&) = delete;
  BatchLoader& operator=(const BatchLoader&) = delete;

  // Waits until step's batch is in the ring (steps are taken in order, from 0): the seconds the
  // caller waited. A read error goes to *error (the loader stops there).
  double acquire(std::uint64_t step, std::string* error);
  // Gives step's buffer back to the loader for the batch `slots` steps later.
  void release(std::uint64_t step);
  // Step's batch: valid from its acquire() to its release().
  const unsigned char* batch(std::uint64_t step) const;
  std::uint64_t batch_bytes() const { return batch_bytes_; }
  // The whole ring of --prefetch batches, for a backend that pins it (cudaHostRegister) once.
  unsigned char* ring() const { return ring_.get(); }
  std::size_t ring_bytes() const { return static_cast<std::size_t>(batch_bytes_) * slots_.size(); }

  const BlockReader& reader() const { return *reader_; }
  long long checked_chunks() const;
  long long bad_chunks() const;
  std::string first_problem() const;

private:
  struct Slot {
    std::uint64_t step = 0;
    bool ready = false; // holds batch `step`
    std::string error;
  };
  void run();

  std::unique_ptr<BlockReader> reader_;
  std::uint64_t batches_in_file_;
  std::uint64_t batch_bytes_, block_bytes_, seed_;
  std::unique_ptr<unsigned char, void (*)(void*)> ring_;
  std::vector<Slot> slots_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_ = false;
  bool failed_ = false; // the loader stopped at a read error
  std::string failed_error_;
  std::uint64_t next_free_step_; // the loader may read steps below this
  long long checked_ = 0, bad_ = 0;
  std::string first_problem_;
  std::thread thread_;
};

} // namespace cb
