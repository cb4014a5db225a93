#include "runtime/host_backend.hpp"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "runtime/mpi_collectives.hpp"
#include "runtime/unavailable_collectives.hpp"

namespace cb {
namespace {

class HostBuffer : public DeviceBuffer {
public:
  explicit HostBuffer(std::size_t bytes) : bytes_(bytes) {
    // 4 KiB alignment: page-aligned like a device allocation, and usable for O_DIRECT.
    const std::size_t rounded = ((bytes == 0 ? 1 : bytes) + 4095) / 4096 * 4096;
    data_ = std::aligned_alloc(4096, rounded);
    if (!data_)
      CB_RUN_ERROR("cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  }
  ~HostBuffer() override { std::free(data_); }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void* data() override { return data_; }
  const void* data() const override { return data_; }
  std::size_t bytes() const override { return bytes_; }

private:
  void* data_ = nullptr;
  std::size_t bytes_;
};

int first_allowed_cpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set))
      return cpu;
  }
  return -1;
}

int allowed_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return 0;
  return CPU_COUNT(&set);
}

} // namespace

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

std::string job_host_name(bool& emulated) {
  const char* name = std::getenv("CLUSTERBENCH_EMULATED_HOST");
  emulated = name != nullptr;
  return emulated ? std::string(name) : host_name();
}

void check_emulated_hosts(const std::vector<std::string>& hosts) {
  for (const auto& text : hosts) {
    const bool printable = std::all_of(text.begin(), text.end(), [](char c) {
      return static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7f;
    });
    if (text.empty() || text.size() > 64 || !printable) {
      throw InputError("CLUSTERBENCH_EMULATED_HOST: expected a host name (printable, no spaces, "
                       "at most 64 bytes), got '" + shown(text) + "'");
    }
  }
}

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

int physical_core_count() {
  // Only the CPUs this process may run on: in a container or a shared allocation /proc/cpuinfo
  // lists the whole host, and mpirun (hwloc) sees only the allowed ones, so a count of the host's
  // cores would ask it for more than it has.
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const bool masked = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
  auto may_run_on = [&](int cpu) {
    return !masked || (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed));
  };
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::set<std::pair<std::string, std::string>> cores;
  std::string package;
  int cpu = -1;
  while (std::getline(in, line)) {
    auto value = [&] { return line.substr(line.find(':') + 1); };
    if (line.rfind("processor", 0) == 0)
      cpu = std::atoi(value().c_str());
    if (line.rfind("physical id", 0) == 0)
      package = value();
    if (line.rfind("core id", 0) == 0 && may_run_on(cpu))
      cores.emplace(package, value());
  }
  const int logical =
      masked ? CPU_COUNT(&allowed) : static_cast<int>(std::thread::hardware_concurrency());
  if (cores.empty())
    return logical > 0 ? logical : 1;
  return static_cast<int>(cores.size());
}

std::uint64_t host_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  while (in >> key >> kib) {
    if (key == "MemTotal:")
      return kib * 1024;
    in.ignore(256, '\n');
  }
  return 0;
}

namespace {
// The CPUs this process may use, one per physical core first (the first logical CPU of each
// (package, core) pair), then their SMT siblings: as mpirun's --bind-to core gives ranks cores.
std::vector<int> cpus_one_per_core_first() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    return {};
  std::map<int, std::pair<std::string, std::string>> core_of_cpu;
  std::ifstream in("/proc/cpuinfo");
  std::string line, package;
  int processor = -1;
  while (std::getline(in, line)) {
    auto value = [&] { return line.substr(line.find(':') + 1); };
    if (line.rfind("processor", 0) == 0)
      processor = std::atoi(value().c_str());
    if (line.rfind("physical id", 0) == 0)
      package = value();
    if (line.rfind("core id", 0) == 0 && processor >= 0)
      core_of_cpu[processor] = {package, value()};
  }
  std::vector<int> first, siblings;
  std::set<std::pair<std::string, std::string>> seen;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed))
      continue;
    const auto it = core_of_cpu.find(cpu);
    const bool new_core = it == core_of_cpu.end() || seen.insert(it->second).second;
    (new_core ? first : siblings).push_back(cpu);
  }
  first.insert(first.end(), siblings.begin(), siblings.end());
  return first;
}
} // namespace

bool pin_this_thread_to_cpu(int index) {
  const std::vector<int> cpus = cpus_one_per_core_first();
  if (cpus.empty() || index < 0)
    return false;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpus[static_cast<std::size_t>(index) % cpus.size()], &one);
  return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

HostBackend::HostBackend(int local_rank) : local_rank_(local_rank) {}

nlohmann::json HostBackend::device() const {
  const int cpu = first_allowed_cpu();
  const std::string host = host_name();
  return {
      {"index", local_rank_},
      {"name", cpu_model_name()},
      // A CPU core has no UUID; host + first CPU of the rank's binding identifies it in a fleet.
      {"uuid", host + ":cpu" + std::to_string(cpu)},
      {"memory_bytes", host_memory_bytes()},
      {"pci_bus_id", ""},
      {"cpus_allowed", allowed_cpu_count()}};
}

nlohmann::json HostBackend::versions() const {
  return nlohmann::json::object();
}

std::unique_ptr<DeviceBuffer> HostBackend::allocate(std::size_t bytes) {
  return std::make_unique<HostBuffer>(bytes);
}

void HostBackend::upload(DeviceBuffer& dst, std::size_t offset, const void* src,
                         std::size_t bytes) {
  std::memcpy(static_cast<char*>(dst.data()) + offset, src, bytes);
}

void HostBackend::download(void* dst, const DeviceBuffer& src, std::size_t offset,
                           std::size_t bytes) {
  std::memcpy(dst, static_cast<const char*>(src.data()) + offset, bytes);
}

double HostBackend::time_batch(int k, const std::function<void()>& enqueue_one) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < k; ++i)
    enqueue_one();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string HostBackend::why_no_collectives(const Communicator& comm) const {
  // The host's collectives are MPI's; threads of one process have no MPI to measure.
  if (!comm.is_mpi()) {
    return "the host backend's collectives are MPI's and need one process per rank: run without "
           "--single-process";
  }
  return "";
}

std::unique_ptr<CollectiveComm> HostBackend::collectives(const Communicator& comm) {
  if (std::string why = why_no_collectives(comm); !why.empty())
    return std::make_unique<UnavailableCollectives>(why);
  return std::make_unique<MpiCollectives>(comm);
}

} // namespace cb
