#include "storage/checkpoint_memory.hpp"

#include <map>

#include "runtime/backend.hpp"

namespace cb {
namespace {

std::map<BackendKind, DeviceCheckpointMaker>& makers() {
  static std::map<BackendKind, DeviceCheckpointMaker> registry;
  return registry;
}

} // namespace

DeviceCheckpointRegistration::DeviceCheckpointRegistration(BackendKind kind,
                                                           DeviceCheckpointMaker make) {
  makers()[kind] = make;
}

std::unique_ptr<DeviceCheckpoint> make_device_checkpoint(Backend& backend, BackendKind kind,
                                                         CheckpointStep step,
                                                         const unsigned char* state,
                                                         std::uint64_t shard_bytes,
                                                         std::size_t block_bytes) {
  const auto it = makers().find(kind);
  if (it == makers().end())
    return nullptr;
  return it->second(backend, step, state, shard_bytes, block_bytes);
}

} // namespace cb
