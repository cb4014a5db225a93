#include "cuda/nccl_collectives.hpp"

#include <algorithm>
#include <exception>

#include "core/error.hpp"
#include "cuda/cuda_error.hpp"
#include "runtime/dtype.hpp"
#include "runtime/unavailable_collectives.hpp"

namespace cb::cuda {

std::string format_nccl_version(int code) {
  int major = 0, minor = 0, patch = 0;
  if (code >= 20900) {
    major = code / 10000;
    minor = (code % 10000) / 100;
    patch = code % 100;
  } else {
    major = code / 1000;
    minor = (code % 1000) / 100;
    patch = code % 100;
  }
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

#ifdef CB_HAVE_NCCL

#define CB_NCCL(call)                                                                              \
  do {                                                                                             \
    const ncclResult_t cb_nccl_rc_ = (call);                                                       \
    if (cb_nccl_rc_ != ncclSuccess) {                                                              \
      ::cb::throw_run_error(__FILE__, __LINE__,                                                    \
                            std::string(#call) + " failed: " + ncclGetErrorString(cb_nccl_rc_) +   \
                                nccl_last_error());                                                \
    }                                                                                              \
  } while (0)

namespace {
std::string nccl_last_error() {
  const char* text = ncclGetLastError(nullptr);
  return text && *text ? std::string(" (") + text + ")" : std::string();
}
} // namespace

std::string nccl_version() {
  int code = 0;
  if (ncclGetVersion(&code) != ncclSuccess)
    return "unknown";
  return format_nccl_version(code);
}

std::optional<ncclDataType_t> nccl_type(DType t) {
  switch (t) {
  case DType::f32:
    return ncclFloat32;
  case DType::f64:
    return ncclFloat64;
  case DType::i32:
    return ncclInt32;
  case DType::bf16:
    return ncclBfloat16;
  case DType::f16:
    return ncclFloat16;
  case DType::f8e4m3:
    return std::nullopt;
  }
  return std::nullopt;
}

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
  case ReduceOp::sum:
    return ncclSum;
  case ReduceOp::min:
    return ncclMin;
  case ReduceOp::max:
    return ncclMax;
  }
  return ncclSum;
}

NcclCommunicator::NcclCommunicator(const Communicator& comm, int device)
    : rank_(comm.rank()), size_(comm.size()) {
  ncclUniqueId id{};
  if (rank_ == 0)
    CB_NCCL(ncclGetUniqueId(&id));
  comm.broadcast(&id, static_cast<int>(sizeof id));
  CB_CUDA(cudaSetDevice(device));
  CB_NCCL(ncclCommInitRank(&comm_, size_, id, rank_));
}

NcclCommunicator::NcclCommunicator(ncclComm_t adopted) : comm_(adopted) {
  CB_NCCL(ncclCommUserRank(comm_, &rank_));
  CB_NCCL(ncclCommCount(comm_, &size_));
}

NcclCommunicator::~NcclCommunicator() {
  if (!comm_ || aborted_)
    return;
  // While an error unwinds, a normal destroy would wait in a barrier for the node's other ranks,
  // which may be waiting for this one: abort instead.
  if (std::uncaught_exceptions() > 0) {
    ncclCommAbort(comm_);
    return;
  }
  ncclCommDestroy(comm_);
}

std::string NcclCommunicator::async_error() const {
  if (!comm_ || aborted_)
    return {};
  ncclResult_t state = ncclSuccess;
  const ncclResult_t rc = ncclCommGetAsyncError(comm_, &state);
  if (rc != ncclSuccess)
    return std::string("ncclCommGetAsyncError: ") + ncclGetErrorString(rc);
  if (state != ncclSuccess && state != ncclInProgress) {
    return std::string(ncclGetErrorString(state)) + nccl_last_error();
  }
  return {};
}

void NcclCommunicator::abort() {
  if (!comm_ || aborted_)
    return;
  aborted_ = true;
  ncclCommAbort(comm_);
}

namespace {

class NcclCollectives : public CollectiveComm {
public:
  NcclCollectives(std::shared_ptr<NcclCommunicator> comm, cudaStream_t stream)
      : comm_(std::move(comm)), stream_(stream) {}

  std::string why_unsupported(Collective c, DType t, ReduceOp, bool in_place) const override {
    if (!nccl_type(t)) {
      return "NCCL has no " + std::string(dtype_name(t)) + " collectives in this build";
    }
    if (c == Collective::alltoall && in_place) {
      return "in-place alltoall: NCCL's send/recv groups need separate buffers";
    }
    if (c != Collective::all_reduce && c != Collective::all_gather &&
        c != Collective::reduce_scatter && c != Collective::broadcast &&
        c != Collective::alltoall) {
      return std::string(collective_name(c)) + " is not measured on the cuda backend";
    }
    return {};
  }

  void all_reduce(const void* send, void* recv, std::size_t count, DType t, ReduceOp op) override {
    CB_NCCL(ncclAllReduce(send, recv, count, *nccl_type(t), nccl_op(op), comm_->get(), stream_));
  }
  void all_gather(const void* send, void* recv, std::size_t send_count, DType t) override {
    CB_NCCL(ncclAllGather(send, recv, send_count, *nccl_type(t), comm_->get(), stream_));
  }
  void reduce_scatter(const void* send, void* recv, std::size_t recv_count, DType t,
                      ReduceOp op) override {
    CB_NCCL(ncclReduceScatter(send, recv, recv_count, *nccl_type(t), nccl_op(op), comm_->get(),
                              stream_));
  }
  void broadcast(const void* send, void* recv, std::size_t count, DType t, int root) override {
    CB_NCCL(ncclBroadcast(send, recv, count, *nccl_type(t), root, comm_->get(), stream_));
  }
  void alltoall(const void* send, void* recv, std::size_t count_per_peer, DType t) override {
    const std::size_t bytes = count_per_peer * dtype_size(t);
    const ncclDataType_t type = *nccl_type(t);
    CB_NCCL(ncclGroupStart());
    try {
      for (int peer = 0; peer < comm_->size(); ++peer) {
        const std::size_t offset = static_cast<std::size_t>(peer) * bytes;
        CB_NCCL(ncclSend(static_cast<const char*>(send) + offset, count_per_peer, type, peer,
                         comm_->get(), stream_));
        CB_NCCL(ncclRecv(static_cast<char*>(recv) + offset, count_per_peer, type, peer,
                         comm_->get(), stream_));
      }
    } catch (...) {
      ncclGroupEnd(); // a group left open would swallow this thread's next NCCL calls
      throw;
    }
    CB_NCCL(ncclGroupEnd());
  }

private:
  std::shared_ptr<NcclCommunicator> comm_;
  cudaStream_t stream_;
};

} // namespace

NcclCache::~NcclCache() {
  // Destroying a communicator waits for its ranks of the node (ncclCommDestroy is intra-node
  // collective): every rank destroys its communicators in one order, by their world ranks (the
  // map's key order), so that no rank waits in one while its peer waits in another. How std::map
  // frees its nodes is the library's choice, not that order.
  while (!comms_.empty())
    comms_.erase(comms_.begin());
}

void NcclCache::split_from(const Communicator& world, const std::vector<Communicator>& groups,
                           int device) {
  if (split_)
    return; // once per run; every rank keeps the same flag
  split_ = true;
  // The keys first: world_ranks() is collective over each group, and a group's members must not
  // be inside it while the others already wait in the next ncclCommSplit.
  std::vector<std::vector<int>> keys;
  for (const Communicator& group : groups)
    keys.push_back(group.valid() ? group.world_ranks() : std::vector<int>{});
  // The parent lives only while the groups are split: with NCCL's default splitShare = 0 every
  // child has resources of its own, so each GPU count is measured as if made alone. A world
  // communicator made already (the plan's link calibration, before the sweep) is the parent and
  // stays the whole job's: an NCCL init at the job's size takes seconds at scale, and is paid once.
  // Every rank holds the same cache, so every rank takes the same branch.
  const std::vector<int> world_key = world.world_ranks();
  std::shared_ptr<NcclCommunicator> parent;
  if (const auto made = comms_.find(world_key); made != comms_.end())
    parent = made->second;
  else
    parent = std::make_shared<NcclCommunicator>(world, device);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const bool member = groups[i].valid();
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    ncclComm_t child = nullptr;
    CB_NCCL(ncclCommSplit(parent->get(), member ? 0 : NCCL_SPLIT_NOCOLOR,
                          member ? groups[i].rank() : 0, &child, &config));
    if (member && comms_.find(keys[i]) == comms_.end())
      comms_.emplace(keys[i], std::make_shared<NcclCommunicator>(child));
    else if (child)
      ncclCommDestroy(child);
  }
  // The calibration's world communicator stays only as a GPU count's own (--gpus below the job
  // frees it here, on every rank alike: the keys are the same everywhere).
  if (std::find(keys.begin(), keys.end(), world_key) == keys.end())
    comms_.erase(world_key);
}

std::shared_ptr<NcclCommunicator> NcclCache::communicator(const Communicator& comm, int device) {
  const std::vector<int> key = comm.world_ranks();
  auto it = comms_.find(key);
  if (it == comms_.end()) {
    it = comms_.emplace(key, std::make_shared<NcclCommunicator>(comm, device)).first;
  }
  return it->second;
}

std::unique_ptr<CollectiveComm> NcclCache::collectives(const Communicator& comm, int device,
                                                       cudaStream_t stream) {
  return std::make_unique<NcclCollectives>(communicator(comm, device), stream);
}

void NcclCache::release(const Communicator& comm) {
  if (!comm.valid())
    return;
  comms_.erase(comm.world_ranks()); // destroyed here unless a case still holds it
}

std::string NcclCache::failure() {
  for (auto& [key, comm] : comms_) {
    std::string why = comm->async_error();
    if (!why.empty()) {
      abort_all();
      return "NCCL communicator of " + std::to_string(key.size()) + " ranks: " + why;
    }
  }
  return {};
}

void NcclCache::abort_all() {
  for (auto& [key, comm] : comms_)
    comm->abort();
}

#else // built without NCCL

std::string nccl_version() {
  return "";
}

NcclCache::~NcclCache() = default;
void NcclCache::release(const Communicator&) {}
void NcclCache::split_from(const Communicator&, const std::vector<Communicator>&, int) {}
std::unique_ptr<CollectiveComm> NcclCache::collectives(const Communicator&, int, cudaStream_t) {
  return std::make_unique<UnavailableCollectives>(
      "this clusterbench was built without NCCL (nccl.h or libnccl not found at build time)");
}
std::string NcclCache::failure() {
  return {};
}
void NcclCache::abort_all() {}

#endif

} // namespace cb::cuda
