#pragma once
// Where a checkpoint's training state lives. On the host backend it is host memory, which the
// checkpoint case moves itself. A backend whose state is in device memory registers a maker here
// (bench/cuda/checkpoint_gpu.cpp for cuda: GPU memory through pinned staging), and the case hands
// the timed part of each step to what it makes; the files, the checks and the record stay the
// case's.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/backend_kind.hpp"

namespace cb {

class Backend;
class BlockReader;
class CheckpointFile;
enum class CheckpointStep; // storage/checkpoint_case.hpp

class DeviceCheckpoint {
public:
  virtual ~DeviceCheckpoint() = default;
  // Where the state is, for the record's extra.memory ("gpu").
  virtual std::string memory() const = 0;
  // The save: the shard from device memory to `file` in its blocks, then fsync. Empty on success,
  // else the first error.
  virtual std::string save(CheckpointFile& file) = 0;
  // Untimed, before a restore or a snapshot: where it lands is overwritten with a poison pattern,
  // so stale bytes cannot pass for the ones moved.
  virtual void clear_landing() = 0;
  // The restore: the blocks at `offsets` (in order, one block each) read through host staging
  // into the device's landing. Empty on success, else the first error.
  virtual std::string restore(BlockReader& reader, const std::vector<std::uint64_t>& offsets) = 0;
  // The snapshot of an asynchronous save: the shard from device memory into pinned host memory.
  virtual std::string stage() = 0;
  // Untimed, for the checks: the restored shard (restore) or the snapshot (stage), in host memory
  // of shard bytes.
  virtual void landed_bytes(unsigned char* host) = 0;
};

// Makes a backend's device-memory shard for `step`, holding `state` (shard_bytes of host memory,
// copied to the device untimed), moved in blocks of block_bytes; throws cb::Error when it cannot.
using DeviceCheckpointMaker = std::unique_ptr<DeviceCheckpoint> (*)(Backend& backend,
                                                                    CheckpointStep step,
                                                                    const unsigned char* state,
                                                                    std::uint64_t shard_bytes,
                                                                    std::size_t block_bytes);

// Registers the maker for the backends of `kind`.
struct DeviceCheckpointRegistration {
  DeviceCheckpointRegistration(BackendKind kind, DeviceCheckpointMaker make);
};

// The run's backend's device shard (`kind`: the run's, CaseContext::backend_kind()), or nullptr
// when its checkpoints are in host memory.
std::unique_ptr<DeviceCheckpoint> make_device_checkpoint(Backend& backend, BackendKind kind,
                                                         CheckpointStep step,
                                                         const unsigned char* state,
                                                         std::uint64_t shard_bytes,
                                                         std::size_t block_bytes);

} // namespace cb
