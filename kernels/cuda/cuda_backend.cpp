#include "cuda/cuda_backend.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "core/error.hpp"
#include "cuda/async_wait.hpp"
#include "cuda/compute_kernels_cuda.hpp"
#include "cuda/device_info.hpp"
#include "cuda/nccl_collectives.hpp"
#include "cuda/nvml_state.hpp"
#include "runtime/cpu_affinity.hpp"

namespace cb::cuda {
namespace {

std::string version_text(int code) {
  // 13000 -> "13.0", 12040 -> "12.4"
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

// The ordinal run_command chose for this rank among the node's ranks (runtime/gpu_assignment.hpp).
int select_device(int device) {
  std::string why;
  const int count = count_cuda_devices(why);
  if (count <= 0)
    CB_RUN_ERROR("no usable CUDA device: " + why);
  if (device < 0 || device >= count)
    CB_RUN_ERROR("CUDA device " + std::to_string(device) + " asked for, " + std::to_string(count) +
                 " visible");
  CB_CUDA(cudaSetDevice(device));
  return device;
}

class CudaBuffer : public DeviceBuffer {
public:
  explicit CudaBuffer(std::size_t bytes) : memory_(bytes) {}
  void* data() override { return memory_.get(); }
  const void* data() const override { return memory_.get(); }
  std::size_t bytes() const override { return memory_.bytes(); }

private:
  DeviceMemory memory_;
};

} // namespace

std::string cuda_build_summary() {
  std::string out = "a rank is a GPU: CUDA kernels for sm_" CB_CUDA_ARCHITECTURES ", cuBLASLt GEMM";
#ifdef CB_HAVE_NCCL
  out += ", NCCL " + format_nccl_version(NCCL_VERSION_CODE) + " collectives";
#else
  out += ", no NCCL (collectives skipped: nccl.h not found at build time)";
#endif
#ifdef CB_HAVE_CUFILE
  // Found, but read_to_gpu skips its gpu_direct target: no figure comes through cuFile yet.
  out += "; cuFile found, but GPUDirect Storage reads are not measured yet: storage reaches the "
         "GPU through pinned host buffers";
#else
  out += "; GPUDirect Storage compiled out (cufile.h not found at build time): storage reaches "
         "the GPU through pinned host buffers";
#endif
  return out;
}

std::string bind_thread_to_gpu(int device) {
  std::string why;
  const int count = count_cuda_devices(why);
  if (count <= 0)
    return why;
  if (device < 0 || device >= count)
    return "no CUDA device " + std::to_string(device);
  const NvmlState nvml(describe_device(device).value("pci_bus_id", ""));
  const std::vector<int> near_gpu = cpus_of_mask(nvml.cpu_affinity_words());
  if (near_gpu.empty())
    return "NVML does not say which CPUs are near GPU " + std::to_string(device);
  // The launcher's cores are kept when they are on the GPU's side: only a rank put on the far
  // socket, or not bound at all, moves.
  return bind_calling_thread(cpus_near_device(current_thread_cpus(), near_gpu));
}

std::vector<VisibleGpu> visible_gpus() {
  std::string why;
  const int count = count_cuda_devices(why);
  std::vector<VisibleGpu> out;
  for (int i = 0; i < count; ++i) {
    const nlohmann::json d = describe_device(i);
    out.push_back({d.value("uuid", ""), d.value("pci_bus_id", "")});
  }
  return out;
}

int count_cuda_devices(std::string& why) {
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    cudaGetLastError();
    why = cudaGetErrorString(rc);
    return 0;
  }
  if (count == 0)
    why = "the CUDA runtime sees no device (check CUDA_VISIBLE_DEVICES)";
  return count;
}

CudaBackend::CudaBackend(int device)
    : device_(select_device(device)), nccl_(std::make_unique<NcclCache>()),
      nvml_(std::make_unique<NvmlState>(describe_device(device_).value("pci_bus_id", ""))) {}

CudaBackend::~CudaBackend() {
  // Destroyed while an error unwinds: a collective may wait for a peer that will never come, and
  // destroying a communicator normally waits for the node's other ranks. Abort them instead.
  if (std::uncaught_exceptions() > 0)
    nccl_->abort_all();
  // Kernels still queued must finish before their buffers and communicators go.
  DeviceScope scope(device_, std::nothrow);
  cudaStreamSynchronize(stream_.get());
}

nlohmann::json CudaBackend::device() const {
  nlohmann::json d = describe_device(device_);
  // The names an operator finds the board by: nvidia-smi's index beside the bus id and UUID
  // (the CUDA ordinal is 0 on every rank that sees one GPU).
  if (const int nvml_index = nvml_->index(); nvml_index >= 0)
    d["nvml_index"] = nvml_index;
  // What the launcher or a wrapper showed this rank, for a first look at a new node.
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"))
    d["cuda_visible_devices"] = shown(visible, 200);
  return d;
}

nlohmann::json CudaBackend::versions() const {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  nlohmann::json v = {{"cuda", version_text(runtime)}, {"cuda_driver_api", version_text(driver)}};
  const std::string driver_version = nvml_->driver_version();
  v["driver"] = driver_version.empty() ? version_text(driver) : driver_version;
  const std::string nccl = nccl_version();
  if (!nccl.empty())
    v["nccl"] = nccl;
  return v;
}

std::unique_ptr<DeviceBuffer> CudaBackend::allocate(std::size_t bytes) {
  DeviceScope scope(device_);
  return std::make_unique<CudaBuffer>(bytes);
}

void CudaBackend::upload(DeviceBuffer& dst, std::size_t offset, const void* src,
                         std::size_t bytes) {
  if (offset + bytes > dst.bytes())
    CB_RUN_ERROR("upload past the end of a device buffer");
  // On the backend's own stream, after the work queued there, and waited for: a plain cudaMemcpy
  // from pageable memory returns once the data is staged, and runs on the legacy stream, which
  // the backend's non-blocking stream does not wait for.
  DeviceScope scope(device_);
  CB_CUDA(cudaMemcpyAsync(static_cast<char*>(dst.data()) + offset, src, bytes,
                          cudaMemcpyHostToDevice, stream_.get()));
  synchronize();
}

void CudaBackend::download(void* dst, const DeviceBuffer& src, std::size_t offset,
                           std::size_t bytes) {
  if (offset + bytes > src.bytes())
    CB_RUN_ERROR("download past the end of a device buffer");
  DeviceScope scope(device_);
  CB_CUDA(cudaMemcpyAsync(dst, static_cast<const char*>(src.data()) + offset, bytes,
                          cudaMemcpyDeviceToHost, stream_.get()));
  synchronize();
}

double CudaBackend::time_batch(int k, const std::function<void()>& enqueue_one) {
  using clock = std::chrono::steady_clock;
  const auto host_start = clock::now();
  start_.record(stream_.get());
  for (int i = 0; i < k; ++i)
    enqueue_one();
  stop_.record(stream_.get());
  wait(stop_.get());
  const double host_s = std::chrono::duration<double>(clock::now() - host_start).count();
  const double event_s = elapsed_seconds(start_, stop_);
  if (event_s > 0)
    host_to_event_ratio_ = host_s / event_s;
  return event_s;
}

namespace {
// A captured graph and its executable, destroyed in reverse order whatever happens.
struct CapturedGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CapturedGraph() = default;
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  ~CapturedGraph() {
    if (exec)
      cudaGraphExecDestroy(exec);
    if (graph)
      cudaGraphDestroy(graph);
  }
};
} // namespace

// One record's graph: captured for a batch size, launched again for every sample of that size.
class CudaGraphTimer : public Backend::GraphTimer {
public:
  CudaGraphTimer(CudaBackend& backend, std::function<void()> enqueue_one,
                 std::function<void()> before_launch)
      : backend_(backend), enqueue_one_(std::move(enqueue_one)),
        before_launch_(std::move(before_launch)) {}

  double time(int k) override {
    DeviceScope scope(backend_.device_);
    if (!captured_ || k != k_) {
      captured_.reset();
      captured_ = capture(k);
      k_ = k;
    }
    // Capture and instantiation take each rank a different time, and so may the host's way to
    // this launch: without lining the ranks up again here, the first to launch would wait inside
    // the graph for the last, and that host-side spread would be timed (and the last to arrive
    // would look like the fastest rank).
    before_launch_();
    cudaStream_t stream = backend_.stream_.get();
    backend_.start_.record(stream);
    CB_CUDA(cudaGraphLaunch(captured_->exec, stream));
    backend_.stop_.record(stream);
    backend_.wait(backend_.stop_.get());
    return elapsed_seconds(backend_.start_, backend_.stop_);
  }

private:
  // Capture: nothing runs; NCCL records its kernels (and their peers' handshakes) into the graph.
  // Thread-local mode, so that another thread of a --single-process run may keep using its own
  // stream meanwhile.
  std::unique_ptr<CapturedGraph> capture(int k) {
    cudaStream_t stream = backend_.stream_.get();
    auto captured = std::make_unique<CapturedGraph>();
    CB_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
      for (int i = 0; i < k; ++i)
        enqueue_one_();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      cudaStreamEndCapture(stream, &partial);
      if (partial)
        cudaGraphDestroy(partial);
      throw;
    }
    CB_CUDA(cudaStreamEndCapture(stream, &captured->graph));
    CB_CUDA(cudaGraphInstantiate(&captured->exec, captured->graph, 0));
    // Uploaded before the clock starts: the first launch would otherwise carry the upload.
    CB_CUDA(cudaGraphUpload(captured->exec, stream));
    backend_.synchronize();
    return captured;
  }

  CudaBackend& backend_;
  std::function<void()> enqueue_one_, before_launch_;
  std::unique_ptr<CapturedGraph> captured_;
  int k_ = 0;
};

double CudaBackend::time_batch_graph(int k, const std::function<void()>& enqueue_one,
                                     const std::function<void()>& before_launch) {
  return CudaGraphTimer(*this, enqueue_one, before_launch).time(k);
}

std::unique_ptr<Backend::GraphTimer> CudaBackend::graph_timer(std::function<void()> enqueue_one,
                                                              std::function<void()> before_launch) {
  return std::make_unique<CudaGraphTimer>(*this, std::move(enqueue_one), std::move(before_launch));
}

void CudaBackend::synchronize() {
  DeviceScope scope(device_); // an event must be made on its stream's device
  Event done;
  done.record(stream_.get());
  wait(done.get());
}

void CudaBackend::wait(cudaEvent_t event, double timeout_s) {
  cudaError_t status = cudaSuccess;
  std::string nccl_failure;
  const WaitOutcome outcome = wait_for(
      [&] {
        status = cudaEventQuery(event);
        return status != cudaErrorNotReady;
      },
      [&] {
        nccl_failure = nccl_->failure();
        return !nccl_failure.empty();
      },
      std::chrono::duration<double>(timeout_s));
  switch (outcome) {
  case WaitOutcome::done:
    if (status != cudaSuccess)
      throw_cuda_error(status, "cudaEventQuery", __FILE__, __LINE__);
    return;
  case WaitOutcome::failed:
    CB_RUN_ERROR(nccl_failure);
  case WaitOutcome::timed_out:
    nccl_->abort_all();
    CB_RUN_ERROR("device work did not finish within " + std::to_string(timeout_s) + " s on GPU " +
                 std::to_string(device_) + " (NCCL communicators aborted)");
  }
}

std::unique_ptr<CollectiveComm> CudaBackend::collectives(const Communicator& comm) {
  return nccl_->collectives(comm, device_, stream_.get());
}

std::unique_ptr<CollectiveComm> CudaBackend::collectives_on(const Communicator& comm,
                                                            cudaStream_t stream) {
  return nccl_->collectives(comm, device_, stream);
}

void CudaBackend::abort_communicators() {
  nccl_->abort_all();
}

#ifdef CB_HAVE_NCCL
std::shared_ptr<NcclCommunicator> CudaBackend::nccl_communicator(const Communicator& comm) {
  return nccl_->communicator(comm, device_);
}
#endif

std::string CudaBackend::why_no_collectives(const Communicator&) const {
  return nccl_version().empty() ? "this clusterbench was built without NCCL (nccl.h or libnccl not "
                                  "found at build time)"
                                : "";
}

void CudaBackend::prepare_collectives(const Communicator& world,
                                      const std::vector<Communicator>& groups) {
  nccl_->split_from(world, groups, device_);
}

#ifdef CB_HAVE_NCCL
namespace {
class NcclHandle : public Backend::CommunicatorHandle {
public:
  NcclHandle(const Communicator& comm, int device) : nccl_(comm, device) {}

private:
  NcclCommunicator nccl_;
};
} // namespace
#endif

std::unique_ptr<Backend::CommunicatorHandle>
CudaBackend::new_communicator(const Communicator& comm) {
#ifdef CB_HAVE_NCCL
  return std::make_unique<NcclHandle>(comm, device_);
#else
  CB_RUN_ERROR(why_no_collectives(comm));
#endif
}

void CudaBackend::release_collectives(const Communicator& group) {
  // Kernels still queued on the communicator must finish before it goes.
  synchronize();
  nccl_->release(group);
}

nlohmann::json CudaBackend::state() const {
  nlohmann::json s = nvml_->snapshot();
  if (host_to_event_ratio_ > 0)
    s["host_to_event_ratio"] = host_to_event_ratio_;
  return s;
}

ComputeKernels* CudaBackend::compute() {
  if (!compute_)
    compute_ = std::make_unique<CudaComputeKernels>(*this);
  return compute_.get();
}

} // namespace cb::cuda
