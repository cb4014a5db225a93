// The checkpoint cases on the cuda backend: the training state is in GPU memory, as a GPU job's
// is. The save copies it from the GPU into two pinned staging blocks and writes them, the copy of
// the next block running on the copy engine while the host writes this one
// (cuda/staging_schedule.hpp's save_schedule), then fsyncs; the restore reads into the staging
// blocks and copies them to the GPU, the read of the next block overlapping the copy of this one
// (staging_schedule), as read_to_gpu does; the snapshot is one copy from the GPU into pinned host
// memory. The case (storage/checkpoint_case.cpp) keeps the files, the checks and the record.
#include <climits>
#include <cstring>
#include <memory>
#include <optional>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/gpu_case.hpp"
#include "cuda/staging_schedule.hpp"
#include "storage/block_reader.hpp"
#include "storage/checkpoint_case.hpp"
#include "storage/checkpoint_file.hpp"
#include "storage/checkpoint_memory.hpp"

namespace cb {
namespace {

constexpr int kStagingBuffers = 2;
// The bytes a restore's landing is poisoned with: never a valid 4 KiB chunk of the pattern.
constexpr int kPoison = 0xA5;

class GpuCheckpoint : public DeviceCheckpoint {
public:
  GpuCheckpoint(cuda::CudaBackend& backend, CheckpointStep step, const unsigned char* state,
                std::uint64_t shard_bytes, std::size_t block_bytes)
      : step_(step), device_(backend.device_index()), stream_(backend.stream()),
        shard_(shard_bytes), block_(block_bytes),
        blocks_(static_cast<int>(shard_bytes / block_bytes)) {
    if (block_bytes == 0 || shard_bytes % block_bytes != 0)
      CB_RUN_ERROR("the checkpoint shard is not whole blocks"); // checkpoint_shard_bytes makes it
    if (step != CheckpointStep::stage &&
        shard_bytes / block_bytes > static_cast<std::uint64_t>(INT_MAX))
      CB_RUN_ERROR("the checkpoint shard has more than " + std::to_string(INT_MAX) +
                   " blocks: use larger --block-sizes");
    cuda::DeviceScope scope(device_);
    for (auto& event : copied_)
      event.emplace();
    for (auto& buffer : staging_)
      buffer = cuda::HostMemory(block_, true);
    state_ = cuda::DeviceMemory(shard_);
    CB_CUDA(cudaMemcpy(state_.get(), state, shard_, cudaMemcpyHostToDevice));
    if (step_ == CheckpointStep::read)
      landing_ = cuda::DeviceMemory(shard_);
    if (step_ == CheckpointStep::stage) // pinned, as an asynchronous save's buffer is
      snapshot_ = cuda::HostMemory(shard_, true);
  }

  std::string memory() const override { return "gpu"; }
  ~GpuCheckpoint() override { cudaStreamSynchronize(stream_); }

  std::string save(CheckpointFile& file) override {
    cuda::DeviceScope scope(device_);
    for (const cuda::SaveStep& step : cuda::save_schedule(blocks_, kStagingBuffers)) {
      switch (step.op) {
      case cuda::SaveOp::copy:
        CB_CUDA(cudaMemcpyAsync(staging_[step.buffer].get(), at(state_, step.block), block_,
                                cudaMemcpyDeviceToHost, stream_));
        copied_[step.buffer]->record(stream_);
        break;
      case cuda::SaveOp::wait_copy:
        CB_CUDA(cudaEventSynchronize(copied_[step.buffer]->get()));
        break;
      case cuda::SaveOp::write: {
        const std::string error =
            file.write_block(static_cast<const unsigned char*>(staging_[step.buffer].get()), block_,
                             static_cast<std::uint64_t>(step.block) * block_);
        if (!error.empty()) {
          CB_CUDA(cudaStreamSynchronize(stream_)); // the copies in flight land in our buffers
          return error;
        }
        break;
      }
      }
    }
    return file.sync();
  }

  void clear_landing() override {
    cuda::DeviceScope scope(device_);
    if (landing_.get()) {
      CB_CUDA(cudaMemsetAsync(landing_.get(), kPoison, shard_, stream_));
      CB_CUDA(cudaStreamSynchronize(stream_));
    }
    if (snapshot_.get())
      std::memset(snapshot_.get(), kPoison, shard_);
  }

  std::string restore(BlockReader& reader, const std::vector<std::uint64_t>& offsets) override {
    cuda::DeviceScope scope(device_);
    if (!landing_.get())
      CB_RUN_ERROR("a restore on a shard made for another step");
    std::string error;
    for (const cuda::StagingStep& step :
         cuda::staging_schedule(static_cast<int>(offsets.size()), kStagingBuffers)) {
      if (!error.empty() && step.op != cuda::StagingOp::finish)
        continue; // after an error only the copies in flight are waited for
      switch (step.op) {
      case cuda::StagingOp::wait_copy:
        CB_CUDA(cudaEventSynchronize(copied_[step.buffer]->get()));
        break;
      case cuda::StagingOp::read:
        error = reader.read_block(offsets[static_cast<std::size_t>(step.block)],
                                  static_cast<unsigned char*>(staging_[step.buffer].get()));
        break;
      case cuda::StagingOp::copy:
        CB_CUDA(cudaMemcpyAsync(at(landing_, step.block), staging_[step.buffer].get(), block_,
                                cudaMemcpyHostToDevice, stream_));
        copied_[step.buffer]->record(stream_);
        break;
      case cuda::StagingOp::finish:
        CB_CUDA(cudaStreamSynchronize(stream_));
        break;
      }
    }
    return error;
  }

  std::string stage() override {
    cuda::DeviceScope scope(device_);
    if (!snapshot_.get())
      CB_RUN_ERROR("a snapshot on a shard made for another step");
    CB_CUDA(
        cudaMemcpyAsync(snapshot_.get(), state_.get(), shard_, cudaMemcpyDeviceToHost, stream_));
    CB_CUDA(cudaStreamSynchronize(stream_));
    return "";
  }

  void landed_bytes(unsigned char* host) override {
    cuda::DeviceScope scope(device_);
    if (snapshot_.get()) {
      std::memcpy(host, snapshot_.get(), shard_);
      return;
    }
    CB_CUDA(cudaMemcpy(host, landing_.get(), shard_, cudaMemcpyDeviceToHost));
  }

private:
  void* at(const cuda::DeviceMemory& memory, int block) const {
    return static_cast<unsigned char*>(memory.get()) + static_cast<std::size_t>(block) * block_;
  }

  CheckpointStep step_;
  int device_;
  cudaStream_t stream_;
  std::uint64_t shard_;
  std::size_t block_;
  int blocks_;
  cuda::HostMemory staging_[kStagingBuffers];
  std::optional<cuda::Event> copied_[kStagingBuffers]; // on the copies' device
  cuda::DeviceMemory state_;   // the training state: the save's and the snapshot's source
  cuda::DeviceMemory landing_; // where a restore lands (read only)
  cuda::HostMemory snapshot_;  // where a snapshot lands (stage only)
};

std::unique_ptr<DeviceCheckpoint> make_gpu_checkpoint(Backend& backend, CheckpointStep step,
                                                      const unsigned char* state,
                                                      std::uint64_t shard_bytes,
                                                      std::size_t block_bytes) {
  return std::make_unique<GpuCheckpoint>(cuda_backend_of(backend, BackendKind::cuda), step, state,
                                         shard_bytes, block_bytes);
}

const DeviceCheckpointRegistration kGpuCheckpoint(BackendKind::cuda, make_gpu_checkpoint);

} // namespace
} // namespace cb
