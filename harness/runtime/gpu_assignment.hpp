#pragma once
// Which GPU each rank of a node drives, from what each rank can see. Launchers give ranks very
// different views of one node: all eight GPUs (mpirun), the GPUs of the rank's NUMA domain (srun
// --gpu-bind=closest), one GPU (--gpus-per-task=1, map_gpu, single:1, a container, a wrapper that
// sets CUDA_VISIBLE_DEVICES), or a reordered list (CUDA_VISIBLE_DEVICES=7,6,...). The rule that
// holds under all of them: the ranks that see the same set of GPUs (by UUID) share it out, the
// n-th of them (by local rank) taking the set's n-th GPU in PCI bus order. Pure, so that each
// launcher's view is unit-tested without a GPU.
#include <string>
#include <vector>

namespace cb {

struct VisibleGpu {
  std::string uuid;       // the GPU's identity; never empty for a real device
  std::string pci_bus_id; // "0000:19:00.0"; the physical order the set is shared out in
};

// One rank of a node: its world rank and the GPUs it sees, in its own CUDA ordinal order.
struct RankView {
  int world_rank = 0;
  std::vector<VisibleGpu> visible;
};

struct GpuAssignment {
  // The CUDA ordinal (an index into that rank's own `visible`) each rank drives, in the order the
  // ranks were given; empty when `problem` is set.
  std::vector<int> ordinal;
  // One line naming the host and the ranks when the node cannot run one GPU per rank: a rank that
  // sees no GPU, ranks that see different GPU counts, two ranks that would share a GPU.
  std::string problem;
};

// `ranks`: the node's ranks in local-rank order. `host`: the node's name, for the problem line.
GpuAssignment assign_gpus(const std::string& host, const std::vector<RankView>& ranks);

// A rank's visible GPUs as the ranks exchange them ([{"uuid":..,"pci_bus_id":..},...]) and back;
// InputError on text that is not such a list.
std::string visible_gpus_text(const std::vector<VisibleGpu>& gpus);
std::vector<VisibleGpu> parse_visible_gpus(const std::string& text);

} // namespace cb
