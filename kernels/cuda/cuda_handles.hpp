#pragma once
// RAII for the CUDA handles the backend holds: device memory, pinned host memory, streams, events,
// and a scope that makes a device current and restores the previous one. Destructors never throw:
// a failure while freeing is ignored because the error that started the unwinding matters more.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <new>
#include <utility>

#include "cuda/cuda_error.hpp"

namespace cb::cuda {

// Makes `device` current for the scope, then restores the device that was current before.
class DeviceScope {
public:
  explicit DeviceScope(int device) {
    CB_CUDA(cudaGetDevice(&previous_));
    if (previous_ != device)
      CB_CUDA(cudaSetDevice(device));
  }
  // For destructors: after a sticky device error cudaGetDevice itself fails, and a throw there
  // would end the process (std::terminate) before the failed record is written.
  DeviceScope(int device, std::nothrow_t) noexcept {
    if (cudaGetDevice(&previous_) != cudaSuccess)
      previous_ = device;
    if (previous_ != device)
      cudaSetDevice(device);
  }
  ~DeviceScope() { cudaSetDevice(previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

private:
  int previous_ = 0;
};

// cudaMalloc'd memory on the current device.
class DeviceMemory {
public:
  DeviceMemory() = default;
  explicit DeviceMemory(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0)
      CB_CUDA(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceMemory() {
    if (ptr_)
      cudaFree(ptr_);
  }
  DeviceMemory(DeviceMemory&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceMemory& operator=(DeviceMemory&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Page-locked host memory (cudaMallocHost), or plain pageable memory when pinned == false, so a
// pinned and a pageable copy are the same code.
class HostMemory {
public:
  HostMemory() = default;
  HostMemory(std::size_t bytes, bool pinned);
  ~HostMemory();
  HostMemory(HostMemory&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)),
        pinned_(o.pinned_) {}
  HostMemory& operator=(HostMemory&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    std::swap(pinned_, o.pinned_);
    return *this;
  }
  HostMemory(const HostMemory&) = delete;
  HostMemory& operator=(const HostMemory&) = delete;
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  bool pinned() const { return pinned_; }

private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  bool pinned_ = false;
};

class Stream {
public:
  Stream() { CB_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_)
      cudaStreamDestroy(stream_);
  }
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    std::swap(stream_, o.stream_);
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

private:
  cudaStream_t stream_ = nullptr;
};

class Event {
public:
  Event() { CB_CUDA(cudaEventCreate(&event_)); }
  ~Event() {
    if (event_)
      cudaEventDestroy(event_);
  }
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) { CB_CUDA(cudaEventRecord(event_, stream)); }

private:
  cudaEvent_t event_ = nullptr;
};

// Seconds between two recorded events (waits for the second).
double elapsed_seconds(const Event& start, const Event& stop);

} // namespace cb::cuda
