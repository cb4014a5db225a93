// The cuda backend's transport for links/pair_bw and links/pair_latency: NCCL send/recv between
// the two ranks' GPUs (NVLink or NVSwitch within a node; across nodes each GPU's own NIC, as
// NCCL's topology search picks it), timed with CUDA events on the backend's stream. Across nodes
// every local GPU i meets GPU i of the other node at once (the rails), so the node pair is
// measured as its NICs carry it and a slow rail names the node and the GPU.
#include <memory>
#include <string>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/memory_check.hpp"
#include "cuda/nccl_collectives.hpp"
#include "gpu_case.hpp"
#include "links/links_case.hpp"

namespace cb {
namespace {

#ifdef CB_HAVE_NCCL

void check_nccl(ncclResult_t rc, const char* what) {
  if (rc != ncclSuccess)
    CB_RUN_ERROR(std::string(what) + " failed: " + ncclGetErrorString(rc));
}

// A rank's source holds 1 + its rank in every float (small integers are exact), so a transfer
// from the wrong peer is caught as surely as a corrupted one.
float pattern_of(int rank) {
  return static_cast<float>(1 + rank);
}

class NcclPairTransport : public PairTransport {
public:
  NcclPairTransport(const CaseContext& ctx, cuda::CudaBackend& backend, std::size_t bytes)
      : backend_(backend), bytes_(bytes), me_(ctx.comm.rank()),
        comm_(backend.nccl_communicator(ctx.comm)) {
    cuda::DeviceScope scope(backend_.device_index());
    // Every rank skips together when any is short: a rank that went on would wait for a partner
    // that never comes.
    unusable_ = ctx.first_problem(allocate());
    if (!unusable_.empty()) {
      source_ = cuda::DeviceMemory();
      destination_ = cuda::DeviceMemory();
      return;
    }
    cuda::launch_fill_constant(DType::f32, source_.get(), bytes_ / 4, pattern_of(me_),
                               backend_.stream());
    cuda::launch_fill_constant(DType::f32, destination_.get(), bytes_ / 4, 0, backend_.stream());
    backend_.synchronize();
  }

  double timed(std::pair<int, int> p, int k, bool both_ways) override {
    if (me_ != p.first && me_ != p.second)
      return 0;
    const int peer = me_ == p.first ? p.second : p.first;
    const bool sends = both_ways || me_ == p.first;
    const bool receives = both_ways || me_ == p.second;
    cuda::DeviceScope scope(backend_.device_index());
    start_.record(backend_.stream());
    for (int i = 0; i < k; ++i) {
      check_nccl(ncclGroupStart(), "ncclGroupStart");
      try {
        if (sends)
          send_to(peer);
        if (receives)
          receive_from(peer);
      } catch (...) {
        ncclGroupEnd(); // a group left open would swallow this thread's next NCCL calls
        throw;
      }
      check_nccl(ncclGroupEnd(), "ncclGroupEnd");
    }
    return stop_clock();
  }

  double ping_pong(std::pair<int, int> p, int k) override {
    if (me_ != p.first && me_ != p.second)
      return 0;
    const bool initiator = me_ == p.first;
    const int peer = initiator ? p.second : p.first;
    cuda::DeviceScope scope(backend_.device_index());
    start_.record(backend_.stream());
    // Not grouped: each call is its own operation on the stream, so the responder's reply starts
    // only once the message has arrived, and the initiator's next message once the reply has.
    for (int i = 0; i < k; ++i) {
      if (initiator) {
        send_to(peer);
        receive_from(peer);
      } else {
        receive_from(peer);
        send_to(peer);
      }
    }
    const double seconds = stop_clock();
    return initiator ? seconds : 0;
  }

  long long check(std::pair<int, int> p, bool both_ways) override {
    const bool received = me_ == p.second || (both_ways && me_ == p.first);
    if (!received)
      return 0;
    const int peer = me_ == p.first ? p.second : p.first;
    const auto wrong = static_cast<long long>(
        count_float_mismatches(backend_, destination_.get(), bytes_ / 4, pattern_of(peer)));
    // Cleared, so the next pair's check cannot pass on this pair's data.
    cuda::DeviceScope scope(backend_.device_index());
    CB_CUDA(cudaMemsetAsync(destination_.get(), 0, bytes_, backend_.stream()));
    backend_.synchronize();
    return wrong;
  }

  std::string method() const override {
    return "NCCL send/recv between the GPUs (ncclSend/ncclRecv in one group), CUDA events";
  }
  std::string ping_pong_method() const override {
    return std::to_string(bytes_) +
           "-byte ping-pong of ncclSend/ncclRecv between the GPUs (each call on its own, in "
           "stream order), CUDA events around k round trips; one NCCL kernel per send and per "
           "receive, whose start on the GPU is part of the figure";
  }
  std::string unusable() const override { return unusable_; }
  bool rails() const override { return true; }
  // The answering side is an ncclRecv + ncclSend already in its stream, not a thread to wake:
  // one order per pair halves the rounds (134 instead of 268 sub-rounds at 128 nodes x 8 GPUs).
  bool ping_pong_both_orders() const override { return false; }

private:
  // Both buffers where they fit in the GPU's free memory now (cudaMemGetInfo, beside a reserve:
  // the communicators and the other counts' buffers already hold some); "" when allocated, else
  // why not. A failed cudaMalloc (out of memory is not a sticky error) is a reason, not an abort.
  std::string allocate() {
    std::size_t free_bytes = 0, total_bytes = 0;
    CB_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::string gpu = backend_.device().value("pci_bus_id", std::string("?"));
    if (std::string why = cuda::device_memory_shortfall(2 * bytes_, free_bytes, gpu); !why.empty())
      return why;
    try {
      source_ = cuda::DeviceMemory(bytes_);
      destination_ = cuda::DeviceMemory(bytes_);
    } catch (const RunError& e) {
      cudaGetLastError();
      return std::string("the pair test's buffers on GPU ") + gpu + ": " + e.what();
    }
    return "";
  }
  void send_to(int peer) {
    check_nccl(ncclSend(source_.get(), bytes_, ncclChar, peer, comm_->get(), backend_.stream()),
               "ncclSend");
  }
  void receive_from(int peer) {
    check_nccl(
        ncclRecv(destination_.get(), bytes_, ncclChar, peer, comm_->get(), backend_.stream()),
        "ncclRecv");
  }
  // The seconds since start_ was recorded, once the stream has got there.
  double stop_clock() {
    stop_.record(backend_.stream());
    backend_.wait(stop_.get());
    return cuda::elapsed_seconds(start_, stop_);
  }

  cuda::CudaBackend& backend_;
  std::size_t bytes_;
  int me_;
  // The backend's cached communicator of these ranks, not one of the transport's own: the
  // backend's wait() polls it for asynchronous errors, so a link that fails mid-test ends the wait
  // with NCCL's reason instead of after the 600 s timeout, and every instance reuses it.
  std::shared_ptr<cuda::NcclCommunicator> comm_;
  cuda::DeviceMemory source_, destination_;
  std::string unusable_;
  cuda::Event start_, stop_;
};

std::unique_ptr<PairTransport> make_transport(const CaseContext& ctx, std::size_t bytes) {
  return std::make_unique<NcclPairTransport>(ctx, cuda_backend_of(ctx.backend, ctx.backend_kind()),
                                             bytes);
}

[[maybe_unused]] const bool pair_transport_registered = [] {
  PairTransportRegistry::instance().add(BackendKind::cuda, &make_transport);
  return true;
}();

#else

[[maybe_unused]] const bool pair_transport_registered = [] {
  PairTransportRegistry::instance().add_why(BackendKind::cuda, [] {
    return std::string("this build has no NCCL: the cuda pair transport is NCCL send/recv");
  });
  return true;
}();

#endif

} // namespace
} // namespace cb
