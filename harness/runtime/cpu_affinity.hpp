#pragma once
// CPU masks of the ranks that drive GPUs: where a rank should run beside its GPU, and the masks
// printed as Linux and Slurm print them ("0-13,56-69"). The rules are pure, so the masks each
// launcher gives (mpirun --bind-to core, srun --cpus-per-task, none at all) are unit-tested.
#include <cstdint>
#include <string>
#include <vector>

namespace cb {

// NVML's and the kernel's mask form: bit b of word w is CPU w * 64 + b.
std::vector<int> cpus_of_mask(const std::vector<std::uint64_t>& words);

// Where a rank that runs on `current` should run to be near its GPU, whose nearest CPUs are
// `near_gpu`: the CPUs of `current` near the GPU when there are some (the launcher's cores, kept
// to the GPU's side), else all of `near_gpu` (the launcher put the rank on the far socket, or
// did not bind it), else `current` (nothing known of the GPU).
std::vector<int> cpus_near_device(const std::vector<int>& current,
                                  const std::vector<int>& near_gpu);

// "0-13,56-69"; "" for none. Sorted and deduplicated first.
std::string cpu_list_text(std::vector<int> cpus);

// The calling thread's CPUs (sched_getaffinity).
std::vector<int> current_thread_cpus();
// Binds the calling thread (and the threads it starts later) to `cpus`: "" when done, else why.
std::string bind_calling_thread(const std::vector<int>& cpus);

} // namespace cb
