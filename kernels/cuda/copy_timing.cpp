#include "cuda/copy_timing.hpp"

#include <memory>

#include "core/error.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/p2p_plan.hpp"

namespace cb::cuda {
namespace {

// The pinned, mapped flag the spin kernels poll. Its destructor releases them: a spin kernel left
// waiting after an exception would hold its GPU forever.
class HostFlag {
public:
  HostFlag() {
    void* memory = nullptr;
    CB_CUDA(cudaHostAlloc(&memory, sizeof(int), cudaHostAllocMapped));
    flag_ = static_cast<volatile int*>(memory);
    *flag_ = 0;
  }
  ~HostFlag() {
    release();
    cudaDeviceSynchronize();
    cudaFreeHost(const_cast<int*>(flag_));
  }
  HostFlag(const HostFlag&) = delete;
  HostFlag& operator=(const HostFlag&) = delete;
  volatile int* device_view() const { return flag_; } // UVA: the same address on the device
  void release() { *flag_ = 1; }

private:
  volatile int* flag_ = nullptr;
};

struct StreamState {
  int device;
  Stream stream;
  Event start, stop;
};

} // namespace

std::vector<double> time_held_copies(const std::vector<CopyStream>& streams, int warmup,
                                     int copies) {
  std::vector<std::unique_ptr<StreamState>> state;
  for (const auto& s : streams) {
    DeviceScope scope(s.device);
    state.push_back(
        std::make_unique<StreamState>(StreamState{s.device, Stream(), Event(), Event()}));
  }
  HostFlag flag;
  for (const ScheduleStep& step :
       held_copy_schedule(static_cast<int>(streams.size()), warmup, copies)) {
    if (step.kind == StepKind::release) {
      flag.release();
      continue;
    }
    StreamState& st = *state[static_cast<std::size_t>(step.stream)];
    DeviceScope scope(st.device);
    switch (step.kind) {
    case StepKind::spin:
      launch_spin_until(flag.device_view(), st.stream.get());
      break;
    case StepKind::copy:
      streams[static_cast<std::size_t>(step.stream)].enqueue_copy(st.stream.get());
      break;
    case StepKind::record_start:
      st.start.record(st.stream.get());
      break;
    case StepKind::record_stop:
      st.stop.record(st.stream.get());
      break;
    case StepKind::release:
      break;
    }
  }
  std::vector<double> seconds;
  for (auto& st : state) {
    DeviceScope scope(st->device);
    seconds.push_back(elapsed_seconds(st->start, st->stop));
  }
  return seconds;
}

} // namespace cb::cuda
