#pragma once
// How bytes move between two ranks' memories on the host backend — the "link" of a CPU node.
//
// Within a node: MPI shared-memory windows (MPI_Win_allocate_shared). Each rank's source buffer
// lives in the window, and the receiving rank copies it into its own memory with its own CPU: a
// real memory-to-memory copy by the destination, like a GPU's SM copy kernel reading a peer's
// memory over NVLink. We chose this over send/recv because send/recv puts MPI's protocol (eager
// copies through a bounce buffer, rendezvous handshakes) between the measurement and the memory
// path, and its figure depends on the MPI build rather than the machine.
// Across nodes there is no shared memory: the pair uses MPI_Send/MPI_Recv over the network, and
// the pair is marked "inter" in the record.
//
// Latency: an 8-byte ping-pong, one-way = round trip / 2. Within a node through flags in the
// window (the cache-line transfer between two cores); across nodes with MPI_Send/MPI_Recv.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/communicator.hpp"

namespace cb {

// The value of 8-byte word w of rank r's source buffer: the rank in the top bits, so a copy from
// the wrong rank or offset is caught.
std::uint64_t link_pattern_word(int rank, std::size_t word);

// The shared-memory window of the ranks of one node: a segment per rank, freed on destruction.
class SharedWindow {
public:
  SharedWindow(const Communicator& node, std::size_t bytes_per_rank);
  ~SharedWindow();
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;
  // The segment of node rank r (directly addressable by this process).
  unsigned char* segment(int node_rank) const;
  // Makes this rank's stores to the window visible to the others' loads (with a barrier after).
  void sync() const;

private:
  MPI_Win win_ = MPI_WIN_NULL;
  std::vector<unsigned char*> segments_; // queried once: the copies are timed
};

class LinkFabric {
public:
  // Collective over `comm`. node_of_rank: node index of each rank of comm. Each rank fills its
  // source buffer with link_pattern_word and keeps a private destination buffer of `bytes`.
  LinkFabric(const Communicator& comm, const std::vector<int>& node_of_rank, std::size_t bytes);
  ~LinkFabric();
  LinkFabric(const LinkFabric&) = delete;
  LinkFabric& operator=(const LinkFabric&) = delete;

  static constexpr const char* kIntraMethod =
      "shared-memory copy by the destination's CPU (MPI_Win_allocate_shared)";
  static constexpr const char* kInterMethod = "MPI_Send/MPI_Recv";

  int rank() const { return rank_; }
  bool same_node(int a, int b) const {
    return node_of_rank_[static_cast<std::size_t>(a)] == node_of_rank_[static_cast<std::size_t>(b)];
  }
  std::size_t bytes() const { return bytes_; }

  // One transfer src -> dst; every other rank does nothing. Called by src and dst alike.
  void one_way(int src, int dst);
  // Both directions between a and b at once.
  void both_ways(int a, int b);
  // Every rank receives from its left neighbour and sends to its right one at once.
  void ring_step(int left, int right);
  // 8-byte ping-pong, `count` round trips; `initiator` times them. Returns the seconds on the
  // initiator, 0 elsewhere.
  double ping_pong(int initiator, int responder, int count);
  // Resets this rank's mailbox before a new pair's ping-pong (a barrier must follow).
  void reset_mailbox();
  // Replies over MPI that did not carry the sequence number they answer (this rank's count).
  long long wrong_replies() const { return wrong_replies_; }

  // Words of this rank's destination that differ from `src`'s pattern; then clears it.
  std::size_t check_destination(int src);

private:
  unsigned char* source(int rank) const;  // rank's source buffer (same node only)
  std::uint64_t* mailbox(int rank) const; // rank's incoming 8-byte message slot
  void send_all(const void* data, int dst) const;
  void recv_all(void* data, int src) const;

  const Communicator& comm_;
  int rank_;
  std::vector<int> node_of_rank_;
  std::vector<int> node_rank_of_; // each rank's rank in this node's communicator
  std::size_t bytes_;
  Communicator node_;
  std::unique_ptr<SharedWindow> window_;
  std::unique_ptr<unsigned char, void (*)(void*)> destination_;
  std::uint64_t next_message_ = 0;
  long long wrong_replies_ = 0;
};

} // namespace cb
