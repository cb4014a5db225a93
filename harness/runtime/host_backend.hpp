#pragma once
// The host backend: one MPI rank is one device (a CPU core), its memory is host memory, its
// collectives are MPI's. A real CPU-cluster benchmark, and the way every machine without a GPU
// runs the whole pipeline.
#include "runtime/backend.hpp"

namespace cb {

class HostBackend : public Backend {
public:
  // local_rank: this rank's index among the ranks of its node (its "device index").
  explicit HostBackend(int local_rank);
  std::string name() const override { return "host"; }
  nlohmann::json device() const override;
  nlohmann::json versions() const override;
  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override;
  void upload(DeviceBuffer& dst, std::size_t offset, const void* src, std::size_t bytes) override;
  void download(void* dst, const DeviceBuffer& src, std::size_t offset, std::size_t bytes) override;
  double time_batch(int k, const std::function<void()>& enqueue_one) override;
  void synchronize() override {}
  std::unique_ptr<CollectiveComm> collectives(const Communicator& comm) override;
  std::string why_no_collectives(const Communicator& comm) const override;

private:
  int local_rank_;
};

// CPU facts used by the host backend and the launcher.
std::string cpu_model_name();
// Distinct (package, core) pairs among the CPUs this process may run on (its affinity mask);
// falls back to the allowed logical CPUs.
int physical_core_count();
std::uint64_t host_memory_bytes();
std::string host_name();
// The host name this rank reports as its node: CLUSTERBENCH_EMULATED_HOST when set (tests that run
// several one-machine "nodes" under one mpirun: ranks of one name are one node), else host_name().
// `emulated` says which.
std::string job_host_name(bool& emulated);
// InputError naming CLUSTERBENCH_EMULATED_HOST for a name that is empty, longer than 64 bytes or
// not printable ASCII without spaces: every rank checks every rank's name, so all refuse alike.
void check_emulated_hosts(const std::vector<std::string>& hosts);
// Pins the calling thread to the index-th CPU this process may use (wrapping around), as mpirun's
// --bind-to core pins a rank. Returns false when the CPU set cannot be read or set.
bool pin_this_thread_to_cpu(int index);

} // namespace cb
