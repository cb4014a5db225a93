#pragma once
// The buffers of the P2P matrix across the ranks of one node. Each rank allocates a source and a
// destination buffer on its own GPU (no context on any other rank's GPU, so an EXCLUSIVE_PROCESS
// compute mode is no obstacle) and maps every peer's destination buffer:
// - between processes, with the peer's CUDA IPC handle (cudaIpcGetMemHandle, 64 bytes sent over
//   the communicator; cudaIpcOpenMemHandle with cudaIpcMemLazyEnablePeerAccess, which can open a
//   handle to a device this process does not see: one GPU per rank works);
// - between threads of one process (--single-process), with the peer's raw pointer after
//   cudaDeviceEnablePeerAccess: a process cannot open its own IPC handles.
// A peer that cannot be mapped (no peer path) is noted with CUDA's error name, not an abort.
#include <cstddef>
#include <string>
#include <vector>

#include "cuda/cuda_handles.hpp"

namespace cb {

class Communicator;

class P2pPeerBuffers {
public:
  // Collective over `node` (the node's ranks taking part), on this rank's `device`: allocates and
  // fills (source 1.5 in every float, destination 0), exports, exchanges and maps.
  P2pPeerBuffers(const Communicator& node, int device, std::size_t bytes, cudaStream_t stream);
  // Where release() was not called (an error unwinding): the mappings are closed, the buffers
  // freed, without waiting for the peers.
  ~P2pPeerBuffers();
  P2pPeerBuffers(const P2pPeerBuffers&) = delete;
  P2pPeerBuffers& operator=(const P2pPeerBuffers&) = delete;

  // Why this node cannot share buffers at all (an export failed on some rank), "" when it can;
  // the same on every rank.
  const std::string& problem() const { return problem_; }
  void* source() const { return source_.get(); }
  void* destination() const { return destination_.get(); }
  // Peer's destination buffer as this rank writes it; nullptr where it is not mapped.
  void* peer_destination(int peer) const { return mapped_[static_cast<std::size_t>(peer)]; }
  // unmapped[src][dst]: "" when node rank src mapped dst's buffer, else why not (every rank's).
  const std::vector<std::vector<std::string>>& unmapped() const { return unmapped_; }
  // How the peers were reached, for the record.
  const std::string& method() const { return method_; }

  // Collective: every rank closes its mappings, the node's ranks meet, and only then each owner
  // frees its buffers (CUDA: freeing an exported buffer before the importers closed it is
  // undefined behaviour).
  void release();

private:
  void close_mappings() noexcept;
  std::string map_peers(const std::vector<std::string>& shares);

  const Communicator& node_;
  int device_;
  cuda::DeviceMemory source_, destination_;
  std::vector<void*> mapped_;    // per peer: its destination, as mapped here
  std::vector<bool> opened_ipc_; // per peer: mapped_ came from cudaIpcOpenMemHandle
  std::vector<std::vector<std::string>> unmapped_;
  std::string problem_;
  std::string method_;
};

} // namespace cb
