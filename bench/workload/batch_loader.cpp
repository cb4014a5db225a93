#include "workload/batch_loader.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "storage/block_format.hpp"

namespace cb {
namespace {

constexpr std::size_t kAlign = 4096;

unsigned char* ring_memory(std::size_t bytes) {
  auto* p = static_cast<unsigned char*>(std::aligned_alloc(kAlign, bytes));
  if (!p)
    CB_RUN_ERROR("cannot allocate " + std::to_string(bytes) + " bytes for the input batches");
  std::memset(p, 0, bytes); // first touch before the steps are timed
  return p;
}

} // namespace

std::vector<std::uint64_t> batch_offsets(std::uint64_t index, std::uint64_t batch_bytes,
                                         std::uint64_t block_bytes) {
  std::vector<std::uint64_t> offsets;
  const std::uint64_t first = kStorageHeaderBytes + index * batch_bytes;
  for (std::uint64_t done = 0; done + block_bytes <= batch_bytes; done += block_bytes)
    offsets.push_back(first + done);
  return offsets;
}

BatchLoader::BatchLoader(std::unique_ptr<BlockReader> reader, std::uint64_t file_bytes,
                         std::uint64_t batch_bytes, std::uint64_t block_bytes, std::uint64_t seed,
                         int slots)
    : reader_(std::move(reader)),
      batches_in_file_(std::max<std::uint64_t>(1, file_bytes / batch_bytes)),
      batch_bytes_(batch_bytes), block_bytes_(block_bytes), seed_(seed),
      ring_(ring_memory(static_cast<std::size_t>(batch_bytes) * static_cast<std::size_t>(slots)),
            std::free),
      slots_(static_cast<std::size_t>(slots)), next_free_step_(static_cast<std::uint64_t>(slots)) {
  for (std::size_t i = 0; i < slots_.size(); ++i)
    slots_[i].step = i;
  thread_ = std::thread([this] { run(); });
}

BatchLoader::~BatchLoader() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

const unsigned char* BatchLoader::batch(std::uint64_t step) const {
  return ring_.get() + static_cast<std::size_t>(step % slots_.size()) * batch_bytes_;
}

void BatchLoader::run() {
  for (std::uint64_t step = 0;; ++step) {
    const std::size_t slot = static_cast<std::size_t>(step % slots_.size());
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stop_ || step < next_free_step_; });
      if (stop_)
        return;
    }
    unsigned char* buffer = ring_.get() + slot * batch_bytes_;
    const std::uint64_t index = step % batches_in_file_;
    const std::vector<std::uint64_t> offsets = batch_offsets(index, batch_bytes_, block_bytes_);
    reader_->drop_cache(); // buffered reads: from the device, not from the page cache
    std::string error = reader_->read_into(offsets, buffer);
    long long checked = 0, bad = 0;
    std::string problem;
    if (error.empty()) {
      for (std::size_t b = 0; b < offsets.size(); ++b) {
        const std::uint64_t chunk = (offsets[b] - kStorageHeaderBytes) / kStorageChunkBytes;
        const std::string why = check_storage_chunk(seed_, chunk, buffer + b * block_bytes_);
        ++checked;
        if (!why.empty()) {
          ++bad;
          if (problem.empty())
            problem = "4 KiB block at byte " + std::to_string(offsets[b]) + ": " + why;
        }
      }
    }
    {
      std::lock_guard lock(mutex_);
      slots_[slot].step = step;
      slots_[slot].ready = true;
      slots_[slot].error = error;
      checked_ += checked;
      bad_ += bad;
      if (first_problem_.empty())
        first_problem_ = problem;
      failed_ = !error.empty();
      failed_error_ = error;
    }
    changed_.notify_all();
    if (!error.empty())
      return;
  }
}

double BatchLoader::acquire(std::uint64_t step, std::string* error) {
  const auto start = std::chrono::steady_clock::now();
  Slot& slot = slots_[static_cast<std::size_t>(step % slots_.size())];
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return (slot.ready && slot.step == step) || failed_; });
  if (!(slot.ready && slot.step == step))
    *error = failed_error_;
  else if (!slot.error.empty())
    *error = slot.error;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void BatchLoader::release(std::uint64_t step) {
  {
    std::lock_guard lock(mutex_);
    slots_[static_cast<std::size_t>(step % slots_.size())].ready = false;
    next_free_step_ = step + 1 + slots_.size();
  }
  changed_.notify_all();
}

long long BatchLoader::checked_chunks() const {
  std::lock_guard lock(mutex_);
  return checked_;
}

long long BatchLoader::bad_chunks() const {
  std::lock_guard lock(mutex_);
  return bad_;
}

std::string BatchLoader::first_problem() const {
  std::lock_guard lock(mutex_);
  return first_problem_;
}

} // namespace cb
