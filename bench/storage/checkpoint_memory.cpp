#include "storage/checkpoint_memory.hpp"

#include <map>

#include "runtime/backend.hpp"

namespace cb {
namespace {

std::map<std::string, DeviceCheckpointMaker>& makers() {
  static std::map<std::string, DeviceCheckpointMaker> registry;
  return registry;
}

} // namespace

DeviceCheckpointRegistration::DeviceCheckpointRegistration(const std::string& backend,
                                                           DeviceCheckpointMaker make) {
  makers()[backend] = make;
}

std::unique_ptr<DeviceCheckpoint> make_device_checkpoint(Backend& backend, CheckpointStep step,
                                                         const unsigned char* state,
                                                         std::uint64_t shard_bytes,
                                                         std::size_t block_bytes) {
  const auto it = makers().find(backend.name());
  if (it == makers().end())
    return nullptr;
  return it->second(backend, step, state, shard_bytes, block_bytes);
}

} // namespace cb
