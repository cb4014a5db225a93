#pragma once
// The backend interface: what a device is, how its memory is allocated and filled, how a batch of
// operations is timed, and how collectives run. Two real implementations: host (an MPI rank is a
// device, a CPU core) and cuda (a GPU; CUDA events, NCCL). Cases are written once against this.
#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/collective_math.hpp"
#include "runtime/dtype.hpp"

namespace cb {

class Communicator;
class ComputeKernels;

// Memory on the device. Freed when destroyed.
class DeviceBuffer {
public:
  virtual ~DeviceBuffer() = default;
  virtual void* data() = 0;
  virtual const void* data() const = 0;
  virtual std::size_t bytes() const = 0;
};

// Collectives bound to one sub-communicator, with NCCL's conventions for buffers: in-place means
// recv == send for all_reduce, broadcast and alltoall; send == recv + rank * send_count for
// all_gather; recv == send + rank * recv_count for reduce_scatter.
class CollectiveComm {
public:
  virtual ~CollectiveComm() = default;
  // Empty when supported, else the reason it is skipped (the same on every rank).
  virtual std::string why_unsupported(Collective c, DType t, ReduceOp op, bool in_place) const = 0;
  virtual void all_reduce(const void* send, void* recv, std::size_t count, DType t,
                          ReduceOp op) = 0;
  virtual void all_gather(const void* send, void* recv, std::size_t send_count, DType t) = 0;
  virtual void reduce_scatter(const void* send, void* recv, std::size_t recv_count, DType t,
                              ReduceOp op) = 0;
  virtual void broadcast(const void* send, void* recv, std::size_t count, DType t, int root) = 0;
  virtual void alltoall(const void* send, void* recv, std::size_t count_per_peer, DType t) = 0;
};

class Backend {
public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // This rank's device: {index, name, uuid, memory_bytes, pci_bus_id, ...}.
  virtual nlohmann::json device() const = 0;
  // Library and driver versions this backend knows: {cuda, driver, nccl, ...}.
  virtual nlohmann::json versions() const = 0;
  virtual std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) = 0;
  // Host <-> device copies of `bytes` at byte `offset` of the device buffer (untimed set-up and
  // verification; chunked by callers so verifying needs no second full-size host copy).
  virtual void upload(DeviceBuffer& dst, std::size_t offset, const void* src,
                      std::size_t bytes) = 0;
  virtual void download(void* dst, const DeviceBuffer& src, std::size_t offset,
                        std::size_t bytes) = 0;
  // Seconds for k operations issued by enqueue_one, to completion. Host: steady clock around the
  // loop. GPU: events around the enqueued batch, then a synchronize.
  virtual double time_batch(int k, const std::function<void()>& enqueue_one) = 0;
  // The same k operations captured into one CUDA graph (untimed) and timed as one graph launch,
  // like nccl-tests -G: what is left of a launch-bound operation without the host's per-call
  // launch cost. Every rank of a collective captures and launches alike; before_launch runs after
  // the untimed capture and before the clock starts (a barrier, so that no rank's launch waits for
  // another's capture inside the timed region). Backends without graphs say why (why_no_graphs)
  // and never get this call.
  virtual std::string why_no_graphs() const {
    return "the " + name() + " backend has no CUDA graphs";
  }
  virtual double time_batch_graph(int k, const std::function<void()>& enqueue_one,
                                  const std::function<void()>& before_launch) {
    before_launch();
    return time_batch(k, enqueue_one);
  }
  // One record's graph timing: the batch is captured once per batch size and the same graph is
  // launched for every sample (nccl-tests captures once per size), instead of a capture per
  // sample. The timer lives no longer than the record; the default captures every time.
  class GraphTimer {
  public:
    virtual ~GraphTimer() = default;
    virtual double time(int k) = 0;
  };
  virtual std::unique_ptr<GraphTimer> graph_timer(std::function<void()> enqueue_one,
                                                  std::function<void()> before_launch);
  virtual void synchronize() = 0;
  virtual std::unique_ptr<CollectiveComm> collectives(const Communicator& comm) = 0;
  // Why this backend has no collectives at all for these ranks ("" when it has): cheap, without
  // making a communicator. collectives() then hands out ones that say the same.
  virtual std::string why_no_collectives(const Communicator& /*comm*/) const { return ""; }
  // Called once by every world rank before the first case that uses collectives, with the
  // sweep's communicator for each GPU count (invalid where this rank is not a member): a backend
  // that splits its communicators from a world one (NCCL) makes them here, where all ranks are.
  virtual void prepare_collectives(const Communicator& /*world*/,
                                   const std::vector<Communicator>& /*groups*/) {}
  // Frees what the backend keeps for `group`'s collectives (an NCCL communicator and its GPU
  // memory) once no case will use it again: every member calls it, in one order on every rank.
  virtual void release_collectives(const Communicator& /*group*/) {}
  // A communicator for `comm`'s collectives made anew, never cached, as a job makes one at every
  // start and restart (collectives/communicator_init times it). Collective over comm; freed when
  // the handle is destroyed. By default MPI's: MPI_Comm_split of comm (mpi_collectives.cpp).
  class CommunicatorHandle {
  public:
    virtual ~CommunicatorHandle() = default;
  };
  virtual std::unique_ptr<CommunicatorHandle> new_communicator(const Communicator& comm);
  // What new_communicator calls, in words the records keep ("MPI_Comm_split").
  virtual std::string communicator_calls() const { return "MPI_Comm_split"; }
  // Device state worth keeping beside a record (power, temperature, throttling); may be empty.
  virtual nlohmann::json state() const { return nlohmann::json::object(); }
  // The backend's own compute kernels (runtime/compute_kernels.hpp), or nullptr when the compute
  // family should use its host kernels. Owned by the backend.
  virtual ComputeKernels* compute() { return nullptr; }
};

// The default graph timer: time_batch_graph, a capture per sample.
class CaptureEverySample : public Backend::GraphTimer {
public:
  CaptureEverySample(Backend& backend, std::function<void()> enqueue_one,
                     std::function<void()> before_launch)
      : backend_(backend), enqueue_one_(std::move(enqueue_one)),
        before_launch_(std::move(before_launch)) {}
  double time(int k) override { return backend_.time_batch_graph(k, enqueue_one_, before_launch_); }

private:
  Backend& backend_;
  std::function<void()> enqueue_one_, before_launch_;
};

inline std::unique_ptr<Backend::GraphTimer>
Backend::graph_timer(std::function<void()> enqueue_one, std::function<void()> before_launch) {
  return std::make_unique<CaptureEverySample>(*this, std::move(enqueue_one),
                                              std::move(before_launch));
}

} // namespace cb
