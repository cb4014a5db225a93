#include "cuda/copy_timing.hpp"

#include <chrono>
#include <memory>

#include "core/error.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/p2p_plan.hpp"

namespace cb::cuda {
namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

struct StreamState {
  int device;
  Stream stream;
  Event start, stop;
};

// The streams taking part and the pinned, mapped flag their spin kernels poll. Destroyed (also
// when an exception unwinds), it releases the spin kernels, waits for every stream on its own
// device, and only then frees the flag, which the kernels on other devices may still be reading.
class HeldStreams {
public:
  explicit HeldStreams(const std::vector<CopyStream>& streams) {
    for (const auto& s : streams) {
      DeviceScope scope(s.device);
      // Kernels are loaded on first launch (lazy loading, the default since CUDA 12.2), and a
      // load may wait for the device to go idle: a copy kernel loaded behind a spinning kernel
      // would never start. Load them all now, before any stream is held.
      load_copy_kernels();
      states_.push_back(
          std::make_unique<StreamState>(StreamState{s.device, Stream(), Event(), Event()}));
    }
    void* memory = nullptr;
    CB_CUDA(cudaHostAlloc(&memory, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
    flag_ = static_cast<volatile int*>(memory);
    *flag_ = 0;
  }
  ~HeldStreams() {
    release();
    for (auto& st : states_) {
      DeviceScope scope(st->device, std::nothrow);
      cudaStreamSynchronize(st->stream.get());
    }
    cudaFreeHost(const_cast<int*>(flag_));
  }
  HeldStreams(const HeldStreams&) = delete;
  HeldStreams& operator=(const HeldStreams&) = delete;

  StreamState& operator[](std::size_t i) { return *states_[i]; }
  volatile int* flag() const { return flag_; } // UVA: the same address on every device
  void release() { *flag_ = 1; }
  // Before a batch is queued again: every stream is idle (the last batch's stop events were
  // waited for), so the new spin kernels find the flag down.
  void hold() { *flag_ = 0; }

private:
  std::vector<std::unique_ptr<StreamState>> states_;
  volatile int* flag_ = nullptr;
};

HeldCopies::HeldCopies(std::vector<CopyStream> streams, std::function<void()> before_release)
    : streams_(std::move(streams)), before_release_(std::move(before_release)),
      held_(std::make_unique<HeldStreams>(streams_)) {}

HeldCopies::~HeldCopies() = default;

std::vector<double> HeldCopies::time(int warmup, int copies) {
  HeldStreams& held = *held_;
  held.hold();
  double released = 0;
  try {
    for (const ScheduleStep& step :
         held_copy_schedule(static_cast<int>(streams_.size()), warmup, copies)) {
      if (step.kind == StepKind::release) {
        if (before_release_)
          before_release_();
        held.release();
        released = steady_seconds();
        continue;
      }
      StreamState& st = held[static_cast<std::size_t>(step.stream)];
      DeviceScope scope(st.device);
      switch (step.kind) {
      case StepKind::spin:
        launch_spin_until(held.flag(), st.stream.get());
        break;
      case StepKind::copy:
        streams_[static_cast<std::size_t>(step.stream)].enqueue_copy(st.stream.get());
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
  } catch (...) {
    held.release(); // never leave a stream spinning behind an error
    throw;
  }
  std::vector<double> seconds;
  windows_.clear();
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    DeviceScope scope(held[i].device);
    seconds.push_back(elapsed_seconds(held[i].start, held[i].stop)); // waits for the stop event
    windows_.push_back(timed_window(released, steady_seconds(), seconds.back()));
  }
  return seconds;
}

std::vector<double> time_held_copies(const std::vector<CopyStream>& streams, int warmup,
                                     int copies) {
  return HeldCopies(streams).time(warmup, copies);
}

} // namespace cb::cuda
