#include "p2p_peer_buffers.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/p2p_node_plan.hpp"
#include "runtime/communicator.hpp"

namespace cb {
namespace {

std::string cuda_failure(const char* call, cudaError_t rc) {
  cudaGetLastError(); // not sticky: cleared, so the next call does not report it again
  return std::string(call) + ": " + cudaGetErrorName(rc) + " (" + cudaGetErrorString(rc) + ")";
}

} // namespace

P2pPeerBuffers::P2pPeerBuffers(const Communicator& node, int device, std::size_t bytes,
                               cudaStream_t stream)
    : node_(node), device_(device), mapped_(static_cast<std::size_t>(node.size()), nullptr),
      opened_ipc_(static_cast<std::size_t>(node.size()), false) {
  cuda::DeviceScope scope(device_);
  source_ = cuda::DeviceMemory(bytes);
  destination_ = cuda::DeviceMemory(bytes);
  cuda::launch_fill_constant(DType::f32, source_.get(), bytes / 4, 1.5, stream);
  cuda::launch_fill_constant(DType::f32, destination_.get(), bytes / 4, 0, stream);
  CB_CUDA(cudaStreamSynchronize(stream));

  nlohmann::json share = {{"pid", static_cast<long long>(::getpid())},
                          {"device", device_},
                          {"pointer", reinterpret_cast<std::uintptr_t>(destination_.get())}};
  std::string mine;
  // Threads of one process never open a handle (their own process made it): none is exported.
  if (node_.is_mpi()) {
    cudaIpcMemHandle_t handle{};
    // The base of a cudaMalloc allocation, as cudaIpcGetMemHandle requires.
    const cudaError_t rc = cudaIpcGetMemHandle(&handle, destination_.get());
    if (rc == cudaSuccess) {
      share["handle"] = cuda::hex_of_bytes(std::string(handle.reserved, sizeof handle.reserved));
    } else {
      mine = "rank " + std::to_string(node_.rank()) +
             " of the node: " + cuda_failure("cudaIpcGetMemHandle", rc);
    }
  }
  problem_ = first_problem_anywhere(node_, mine);
  if (!problem_.empty())
    return;
  // One share per rank of the node to every rank of the node: n^2 of about 200 bytes, n at most
  // the node's GPUs.
  const std::string row = map_peers(node_.all_gather_string(share.dump()));
  for (const std::string& text : node_.all_gather_string(row)) {
    const nlohmann::json whys = nlohmann::json::parse(text, nullptr, false);
    std::vector<std::string> out;
    if (whys.is_array()) {
      for (const nlohmann::json& why : whys)
        out.push_back(why.is_string() ? why.get<std::string>() : "no mapping reported");
    }
    unmapped_.push_back(std::move(out));
  }
}

P2pPeerBuffers::~P2pPeerBuffers() {
  close_mappings();
}

std::string P2pPeerBuffers::map_peers(const std::vector<std::string>& shares) {
  const int me = node_.rank();
  const bool threads = !node_.is_mpi();
  const auto my_pid = static_cast<long long>(::getpid());
  nlohmann::json row = nlohmann::json::array();
  for (std::size_t peer = 0; peer < shares.size(); ++peer) {
    if (static_cast<int>(peer) == me) {
      row.push_back("");
      continue;
    }
    const nlohmann::json share = nlohmann::json::parse(shares[peer], nullptr, false);
    if (!share.is_object() || !share.contains("pid") || !share.contains("device") ||
        !share.contains("pointer"))
      CB_RUN_ERROR("p2p_matrix: node rank " + std::to_string(peer) + " shared no buffer");
    std::string why;
    if (cuda::same_process(my_pid, share["pid"].get<long long>(), threads)) {
      // One process: the peer's pointer is valid here once peer access is on.
      const int peer_device = share["device"].get<int>();
      int can = 0;
      CB_CUDA(cudaDeviceCanAccessPeer(&can, device_, peer_device));
      const cudaError_t rc = can ? cudaDeviceEnablePeerAccess(peer_device, 0) : cudaSuccess;
      if (!can) {
        why = "no peer access between the GPUs (cudaDeviceCanAccessPeer)";
      } else if (rc == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
      } else if (rc != cudaSuccess) {
        why = cuda_failure("cudaDeviceEnablePeerAccess", rc);
      }
      if (why.empty())
        mapped_[peer] = reinterpret_cast<void*>(share["pointer"].get<std::uintptr_t>());
      method_ = "threads of one process: the peer's pointer after cudaDeviceEnablePeerAccess";
    } else {
      if (!share.contains("handle") || !share["handle"].is_string())
        CB_RUN_ERROR("p2p_matrix: node rank " + std::to_string(peer) + " shared no IPC handle");
      const std::string raw = cuda::bytes_of_hex(share["handle"].get<std::string>());
      cudaIpcMemHandle_t handle{};
      if (raw.size() != sizeof handle.reserved)
        CB_RUN_ERROR("p2p_matrix: node rank " + std::to_string(peer) +
                     "'s IPC handle is not 64 bytes");
      std::memcpy(handle.reserved, raw.data(), raw.size());
      void* mapped = nullptr;
      // Mapped into this rank's own device's address space (the current device, DeviceScope in
      // the constructor); the lazy flag enables peer access to the owner's GPU as needed, that
      // GPU being visible to this process or not.
      const cudaError_t rc = cudaIpcOpenMemHandle(&mapped, handle, cudaIpcMemLazyEnablePeerAccess);
      if (rc == cudaSuccess) {
        mapped_[peer] = mapped;
        opened_ipc_[peer] = true;
      } else {
        why = cuda_failure("cudaIpcOpenMemHandle", rc);
      }
      method_ = "processes: CUDA IPC handles (cudaIpcOpenMemHandle, "
                "cudaIpcMemLazyEnablePeerAccess), each copy on the source rank's stream";
    }
    row.push_back(why);
  }
  return row.dump();
}

void P2pPeerBuffers::close_mappings() noexcept {
  cuda::DeviceScope scope(device_, std::nothrow);
  for (std::size_t peer = 0; peer < mapped_.size(); ++peer) {
    if (opened_ipc_[peer] && mapped_[peer])
      cudaIpcCloseMemHandle(mapped_[peer]);
    mapped_[peer] = nullptr;
    opened_ipc_[peer] = false;
  }
}

void P2pPeerBuffers::release() {
  close_mappings();
  node_.barrier(); // every importer has closed before any owner frees
  cuda::DeviceScope scope(device_);
  source_ = cuda::DeviceMemory();
  destination_ = cuda::DeviceMemory();
}

} // namespace cb
