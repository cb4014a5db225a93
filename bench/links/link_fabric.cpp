#include "links/link_fabric.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

namespace cb {
namespace {

constexpr std::size_t kPage = 4096;
constexpr int kTag = 4242;
// MPI counts are int: large buffers go in chunks of 1 GiB.
constexpr std::size_t kMpiChunk = std::size_t{1} << 30;

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

void cpu_relax() {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#endif
}

// Waits until the 8-byte slot holds `value`. Spins (the latency being measured is a few hundred
// nanoseconds), but yields now and then so an oversubscribed node still makes progress.
void wait_for(std::uint64_t* slot, std::uint64_t value) {
  std::atomic_ref<std::uint64_t> ref(*slot);
  for (unsigned spins = 1; ref.load(std::memory_order_acquire) != value; ++spins) {
    cpu_relax();
    if (spins % 16384 == 0)
      sched_yield();
  }
}

void post(std::uint64_t* slot, std::uint64_t value) {
  std::atomic_ref<std::uint64_t>(*slot).store(value, std::memory_order_release);
}

} // namespace

std::uint64_t link_pattern_word(int rank, std::size_t word) {
  return (static_cast<std::uint64_t>(rank + 1) << 48) ^ static_cast<std::uint64_t>(word);
}

SharedWindow::SharedWindow(const Communicator& node, std::size_t bytes_per_rank) {
  MPI_Info info;
  MPI_Info_create(&info);
  // A separate, page-aligned segment per rank: each rank's pages are its own (first touch).
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  const int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes_per_rank), 1, info, node.get(),
                                         &base, &win_);
  MPI_Info_free(&info);
  check_mpi(rc, "MPI_Win_allocate_shared");
  // A passive epoch for the window's life: loads and stores are direct, MPI_Win_sync orders them.
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
  for (int r = 0; r < node.size(); ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* pointer = nullptr;
    check_mpi(MPI_Win_shared_query(win_, r, &size, &unit, &pointer), "MPI_Win_shared_query");
    segments_.push_back(static_cast<unsigned char*>(pointer));
  }
}

SharedWindow::~SharedWindow() {
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
}

unsigned char* SharedWindow::segment(int node_rank) const {
  return segments_.at(static_cast<std::size_t>(node_rank));
}

void SharedWindow::sync() const {
  check_mpi(MPI_Win_sync(win_), "MPI_Win_sync");
}

LinkFabric::LinkFabric(const Communicator& comm, const std::vector<int>& node_of_rank,
                       std::size_t bytes)
    : comm_(comm), rank_(comm.rank()), node_of_rank_(node_of_rank), bytes_(bytes),
      node_(comm.split_shared()), destination_(nullptr, std::free) {
  node_rank_of_ = comm.all_gather_int(node_.rank());
  window_ = std::make_unique<SharedWindow>(node_, round_up(kPage + bytes, kPage));
  destination_.reset(
      static_cast<unsigned char*>(std::aligned_alloc(kPage, round_up(bytes, kPage))));
  if (!destination_)
    CB_RUN_ERROR("cannot allocate " + std::to_string(bytes) + " bytes");

  // First touch by the owner: each rank's pages are placed on its own memory node.
  auto* words = reinterpret_cast<std::uint64_t*>(source(rank_));
  for (std::size_t w = 0; w < bytes / 8; ++w)
    words[w] = link_pattern_word(rank_, w);
  std::memset(destination_.get(), 0, bytes);
  reset_mailbox();
  window_->sync();
  comm_.barrier();
}

LinkFabric::~LinkFabric() {
  // Nobody may still be reading a segment when the window goes.
  MPI_Barrier(comm_.get());
}

unsigned char* LinkFabric::source(int rank) const {
  return window_->segment(node_rank_of_[static_cast<std::size_t>(rank)]) + kPage;
}

std::uint64_t* LinkFabric::mailbox(int rank) const {
  return reinterpret_cast<std::uint64_t*>(
      window_->segment(node_rank_of_[static_cast<std::size_t>(rank)]));
}

void LinkFabric::send_all(const void* data, int dst) const {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t done = 0; done < bytes_; done += kMpiChunk) {
    const int n = static_cast<int>(std::min(kMpiChunk, bytes_ - done));
    check_mpi(MPI_Send(p + done, n, MPI_BYTE, dst, kTag, comm_.get()), "MPI_Send");
  }
}

void LinkFabric::recv_all(void* data, int src) const {
  auto* p = static_cast<unsigned char*>(data);
  for (std::size_t done = 0; done < bytes_; done += kMpiChunk) {
    const int n = static_cast<int>(std::min(kMpiChunk, bytes_ - done));
    check_mpi(MPI_Recv(p + done, n, MPI_BYTE, src, kTag, comm_.get(), MPI_STATUS_IGNORE),
              "MPI_Recv");
  }
}

void LinkFabric::one_way(int src, int dst) {
  if (rank_ == dst) {
    if (same_node(src, dst)) {
      std::memcpy(destination_.get(), source(src), bytes_);
    } else {
      recv_all(destination_.get(), src);
    }
  } else if (rank_ == src && !same_node(src, dst)) {
    send_all(source(rank_), dst);
  }
}

void LinkFabric::both_ways(int a, int b) {
  if (rank_ != a && rank_ != b)
    return;
  const int peer = rank_ == a ? b : a;
  if (same_node(a, b)) {
    std::memcpy(destination_.get(), source(peer), bytes_);
    return;
  }
  for (std::size_t done = 0; done < bytes_; done += kMpiChunk) {
    const int n = static_cast<int>(std::min(kMpiChunk, bytes_ - done));
    check_mpi(MPI_Sendrecv(source(rank_) + done, n, MPI_BYTE, peer, kTag, destination_.get() + done,
                           n, MPI_BYTE, peer, kTag, comm_.get(), MPI_STATUS_IGNORE),
              "MPI_Sendrecv");
  }
}

void LinkFabric::ring_step(int left, int right) {
  std::vector<MPI_Request> requests;
  for (std::size_t done = 0; done < bytes_; done += kMpiChunk) {
    const int n = static_cast<int>(std::min(kMpiChunk, bytes_ - done));
    if (!same_node(left, rank_)) {
      requests.emplace_back();
      check_mpi(MPI_Irecv(destination_.get() + done, n, MPI_BYTE, left, kTag, comm_.get(),
                          &requests.back()),
                "MPI_Irecv");
    }
    if (!same_node(right, rank_)) {
      requests.emplace_back();
      check_mpi(
          MPI_Isend(source(rank_) + done, n, MPI_BYTE, right, kTag, comm_.get(), &requests.back()),
          "MPI_Isend");
    }
  }
  if (same_node(left, rank_))
    std::memcpy(destination_.get(), source(left), bytes_);
  if (!requests.empty()) {
    check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall");
  }
}

void LinkFabric::reset_mailbox() {
  post(mailbox(rank_), 0);
  next_message_ = 0;
}

double LinkFabric::ping_pong(int initiator, int responder, int count) {
  if (rank_ != initiator && rank_ != responder)
    return 0;
  const bool shared = same_node(initiator, responder);
  const int peer = rank_ == initiator ? responder : initiator;
  std::uint64_t message = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    const std::uint64_t seq = ++next_message_;
    if (shared) {
      if (rank_ == initiator) {
        post(mailbox(peer), seq);
        wait_for(mailbox(rank_), seq);
      } else {
        wait_for(mailbox(rank_), seq);
        post(mailbox(peer), seq);
      }
    } else if (rank_ == initiator) {
      check_mpi(MPI_Send(&seq, 1, MPI_UINT64_T, peer, kTag, comm_.get()), "MPI_Send");
      check_mpi(MPI_Recv(&message, 1, MPI_UINT64_T, peer, kTag, comm_.get(), MPI_STATUS_IGNORE),
                "MPI_Recv");
      wrong_replies_ += message != seq ? 1 : 0;
    } else {
      check_mpi(MPI_Recv(&message, 1, MPI_UINT64_T, peer, kTag, comm_.get(), MPI_STATUS_IGNORE),
                "MPI_Recv");
      wrong_replies_ += message != seq ? 1 : 0;
      check_mpi(MPI_Send(&message, 1, MPI_UINT64_T, peer, kTag, comm_.get()), "MPI_Send");
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rank_ == initiator ? seconds : 0;
}

std::size_t LinkFabric::check_destination(int src) {
  const auto* words = reinterpret_cast<const std::uint64_t*>(destination_.get());
  std::size_t wrong = 0;
  for (std::size_t w = 0; w < bytes_ / 8; ++w)
    wrong += words[w] != link_pattern_word(src, w) ? 1 : 0;
  // Cleared, so the next pair's check cannot pass on this pair's data.
  std::memset(destination_.get(), 0, bytes_);
  return wrong;
}

} // namespace cb
