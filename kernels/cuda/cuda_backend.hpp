#pragma once
// The cuda backend: one MPI rank drives one GPU (the one its node's ranks agreed on,
// runtime/gpu_assignment.hpp). Memory is device memory, batches are timed with CUDA events on the
// backend's stream (the host clock alongside, as a cross-check), collectives are NCCL's, compute
// kernels are this directory's.
#include <memory>
#include <string>

#include "cuda/cuda_handles.hpp"
#include "runtime/backend.hpp"
#include "runtime/gpu_assignment.hpp"

namespace cb::cuda {

class NcclCache;
class NcclCommunicator;
class CudaComputeKernels;
class NvmlState;

class CudaBackend : public Backend {
public:
  // device: the CUDA ordinal this rank drives, as assign_gpus chose it; RunError when not visible.
  explicit CudaBackend(int device);
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  std::string name() const override { return "cuda"; }
  nlohmann::json device() const override;
  nlohmann::json versions() const override;
  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override;
  void upload(DeviceBuffer& dst, std::size_t offset, const void* src, std::size_t bytes) override;
  void download(void* dst, const DeviceBuffer& src, std::size_t offset, std::size_t bytes) override;
  // Events around the batch on the backend's stream; returns the event time. The host time of
  // the same batch is kept: host_to_event_ratio() (1.0 = the clocks agree).
  double time_batch(int k, const std::function<void()>& enqueue_one) override;
  std::string why_no_graphs() const override { return ""; }
  double time_batch_graph(int k, const std::function<void()>& enqueue_one,
                          const std::function<void()>& before_launch) override;
  // A record's graphs: captured once per batch size, launched for every sample.
  std::unique_ptr<GraphTimer> graph_timer(std::function<void()> enqueue_one,
                                          std::function<void()> before_launch) override;
  void synchronize() override;
  std::unique_ptr<CollectiveComm> collectives(const Communicator& comm) override;
  // The same communicator's collectives enqueued on another stream of this GPU (a training
  // step's all-reduce beside its compute); wait() watches it like the others.
  std::unique_ptr<CollectiveComm> collectives_on(const Communicator& comm, cudaStream_t stream);
  // The cached NCCL communicator of `comm` on this GPU, for direct send/recv (the pair tests):
  // wait() watches it for asynchronous errors and aborts it on a timeout, like the collectives'.
  // Defined in builds with NCCL only.
  std::shared_ptr<NcclCommunicator> nccl_communicator(const Communicator& comm);
  // Aborts every NCCL communicator of this backend (an error is unwinding: work queued behind a
  // peer that will never post its part must end, not be waited for).
  void abort_communicators();
  std::string why_no_collectives(const Communicator& comm) const override;
  // One NCCL communicator per GPU count, split from a world communicator (ncclCommSplit).
  void prepare_collectives(const Communicator& world,
                           const std::vector<Communicator>& groups) override;
  void release_collectives(const Communicator& group) override;
  // A new NCCL communicator (ncclGetUniqueId on rank 0, its broadcast, ncclCommInitRank), as
  // the cache makes one outside the sweep's split; ncclCommDestroy when the handle goes.
  std::unique_ptr<CommunicatorHandle> new_communicator(const Communicator& comm) override;
  std::string communicator_calls() const override {
    return "ncclGetUniqueId, broadcast, ncclCommInitRank";
  }
  // NVML readings (power, temperature, clocks, throttle reasons) and the last host/event ratio.
  nlohmann::json state() const override;
  ComputeKernels* compute() override;

  int device_index() const { return device_; }
  cudaStream_t stream() const { return stream_.get(); }
  double host_to_event_ratio() const { return host_to_event_ratio_; }
  // Waits for the event (or the whole stream) while watching NCCL for asynchronous errors; an
  // error or `timeout_s` without completion aborts the communicators and throws RunError.
  void wait(cudaEvent_t event, double timeout_s = kWaitTimeoutS);
  static constexpr double kWaitTimeoutS = 600;

private:
  friend class CudaGraphTimer;
  int device_;
  Stream stream_;
  Event start_, stop_;
  double host_to_event_ratio_ = 0;
  std::unique_ptr<NcclCache> nccl_;
  std::unique_ptr<CudaComputeKernels> compute_;
  std::unique_ptr<NvmlState> nvml_;
};

// What this build of the cuda backend has: the GPU architectures compiled for, NCCL, and whether
// GPUDirect Storage (cuFile) was compiled in or out.
std::string cuda_build_summary();

// Binds the calling thread to CPUs near CUDA device `device` (NVML's CPU affinity), keeping the
// launcher's CPUs where they are near it (runtime/cpu_affinity.hpp): "" when done, else why not.
std::string bind_thread_to_gpu(int device);

// The GPUs this process sees, in CUDA ordinal order, by UUID and PCI bus id (no context made).
std::vector<VisibleGpu> visible_gpus();

// The devices this process can use, 0 with `why` = the CUDA runtime's message when none.
int count_cuda_devices(std::string& why);

} // namespace cb::cuda
