#pragma once
// Which device a rank drives, agreed by its node's ranks before any record: the GPU rule of
// runtime/gpu_assignment.hpp over what each rank sees (a gather within the node only), then the
// rank bound near its GPU; the host backend's device is the rank's index on its node.
#include <string>

#include "runtime/backend_registry.hpp"
#include "runtime/communicator.hpp"

namespace cb {

struct DeviceChoice {
  int device = 0;
  // One line naming the host and ranks when the node cannot run one GPU per rank; the same on
  // every rank of the node.
  std::string problem;
};

// Collective over `node`. For a backend that lists its devices (GPUs), the calling thread is then
// bound near its GPU (info.bind_thread: within the launcher's CPUs where they are on the GPU's
// side), before NCCL and the loaders start threads that inherit the binding; a binding refused (a
// cgroup without those CPUs) leaves the launcher's.
DeviceChoice choose_device(const Communicator& node, const BackendInfo& info,
                           const std::string& host);

} // namespace cb
