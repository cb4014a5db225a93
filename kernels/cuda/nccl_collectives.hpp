#pragma once
// NCCL collectives for the cuda backend: one NCCL communicator per GPU count of the sweep, split
// from a world communicator (ncclCommSplit) before the first collectives case and cached, so every
// case at a count reuses it. A communicator asked for outside the sweep's split is made on its own
// (ncclGetUniqueId on rank 0, broadcast, ncclCommInitRank). Buffers follow NCCL's conventions,
// which are the interface's.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/backend.hpp"
#include "runtime/communicator.hpp"

#ifdef CB_HAVE_NCCL
#include <nccl.h>
#endif

namespace cb::cuda {

// ncclGetVersion's code as text: 22809 -> "2.28.9" (2.9 and later: major*10000 + minor*100 +
// patch; before: major*1000 + minor*100 + patch).
std::string format_nccl_version(int code);
// The NCCL library's version, or "" when the backend was built without NCCL.
std::string nccl_version();

#ifdef CB_HAVE_NCCL
// The NCCL type for a DType; empty for types NCCL has no reduction for here (fp8).
std::optional<ncclDataType_t> nccl_type(DType t);
ncclRedOp_t nccl_op(ReduceOp op);

// One ncclComm_t. Destroyed normally, or aborted once an error has been seen on it.
class NcclCommunicator {
public:
  NcclCommunicator(const Communicator& comm, int device);
  // Takes ownership of a communicator made by ncclCommSplit.
  explicit NcclCommunicator(ncclComm_t adopted);
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;
  ncclComm_t get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // The asynchronous error of the communicator as text, empty while it is healthy.
  std::string async_error() const;
  void abort();

private:
  ncclComm_t comm_ = nullptr;
  int rank_ = 0;
  int size_ = 0;
  bool aborted_ = false;
};
#endif

// The communicators of one backend, keyed by the world ranks of the MPI sub-communicator.
class NcclCache {
public:
  NcclCache() = default;
  ~NcclCache();
  NcclCache(const NcclCache&) = delete;
  NcclCache& operator=(const NcclCache&) = delete;
  // Makes the communicator of every group by splitting one over `world` (every world rank calls
  // it, with the same groups in the same order; invalid groups are those this rank is not in).
  void split_from(const Communicator& world, const std::vector<Communicator>& groups, int device);
  // The collectives of `comm` on `device`, enqueued on `stream`. Collective over comm.
  std::unique_ptr<CollectiveComm> collectives(const Communicator& comm, int device,
                                              cudaStream_t stream);
#ifdef CB_HAVE_NCCL
  // The cached communicator of `comm` on `device`, made when first asked for (collective over
  // comm). Whoever uses it directly (the pair transport's send/recv) is watched by failure() and
  // aborted by abort_all() like the collectives: a link that fails mid-test ends the wait at once.
  std::shared_ptr<NcclCommunicator> communicator(const Communicator& comm, int device);
#endif
  // Destroys the communicator of `comm` (collective over comm's members; nothing when this rank
  // is not one, or it was never made). One made again later is made as communicator() makes it.
  void release(const Communicator& comm);
  // Polls every communicator; on an error aborts them all and returns its text.
  std::string failure();
  void abort_all();

private:
  bool split_ = false;
#ifdef CB_HAVE_NCCL
  std::map<std::vector<int>, std::shared_ptr<NcclCommunicator>> comms_;
#endif
};

} // namespace cb::cuda
