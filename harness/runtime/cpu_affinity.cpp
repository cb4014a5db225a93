#include "runtime/cpu_affinity.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace cb {

std::vector<int> cpus_of_mask(const std::vector<std::uint64_t>& words) {
  std::vector<int> cpus;
  for (std::size_t w = 0; w < words.size(); ++w) {
    for (int b = 0; b < 64; ++b) {
      if ((words[w] >> b) & 1U)
        cpus.push_back(static_cast<int>(w) * 64 + b);
    }
  }
  return cpus;
}

std::vector<int> cpus_near_device(const std::vector<int>& current,
                                  const std::vector<int>& near_gpu) {
  if (near_gpu.empty())
    return current;
  std::vector<int> a = current, b = near_gpu, both;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  both.erase(std::unique(both.begin(), both.end()), both.end());
  if (!both.empty())
    return both;
  b.erase(std::unique(b.begin(), b.end()), b.end());
  return b;
}

std::string cpu_list_text(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
      ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]);
    if (j > i)
      out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

std::vector<int> current_thread_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0)
    return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set))
      cpus.push_back(cpu);
  }
  return cpus;
}

std::string bind_calling_thread(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  int usable = 0;
  for (int cpu : cpus) {
    if (cpu >= 0 && cpu < CPU_SETSIZE) {
      CPU_SET(cpu, &set);
      ++usable;
    }
  }
  if (usable == 0)
    return "no CPU to bind to";
  // A cgroup's cpuset (srun, a container) may hold none of them: then the binding stays as it is.
  if (const int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set); rc != 0)
    return "cannot bind to CPUs " + cpu_list_text(cpus) + ": " + std::strerror(rc);
  return "";
}

} // namespace cb
