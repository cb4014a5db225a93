// The collectives family: the backend's collectives at every GPU count, and the communicator's
// creation.
#include <algorithm>

#include "collectives/collective_options.hpp"
#include "core/collective_math.hpp"
#include "core/error.hpp"
#include "planning/hardware_model.hpp"
#include "planning/time_model.hpp"
#include "results/suite_names.hpp"
#include "runtime/family.hpp"
#include "runtime/run_config.hpp"

namespace cb {
namespace {

class CollectivesFamily final : public Family {
public:
  std::string suite() const override { return suite_names::kCollectives; }
  int order() const override { return 2; }
  std::string report_sentence() const override {
    return "bus bandwidth (nccl-tests definition) at the largest message size; E(N) = busbw(N) / "
           "busbw(2), as busbw is already a per-GPU figure.";
  }
  bool draws_plot(const std::string& stem) const override {
    return Family::draws_plot(stem) || stem == "busbw_vs_size";
  }

  // Alpha-beta (Hockney, as harness/analysis/alpha_beta fits it): alpha_launch + steps x
  // alpha_step + bytes x busbw_factor(n) / bus bandwidth, with log2 n steps (trees and recursive
  // doubling; n - 1 for alltoall), the step latency and the bandwidth of the slowest tier taking
  // part.
  std::optional<double> operation_seconds(const std::string& name, const nlohmann::json& params,
                                          const PhaseShape& shape,
                                          const HardwareModel& m) const override {
    if (name == "communicator_init") { // MPI's split: a few reductions; NCCL's init ~0.2 s and more
      const double step = shape.nodes > 1 ? m.alpha_inter_s : m.alpha_intra_s;
      return m.backend == "host" ? 4 * (m.alpha_launch_s + log2_steps(shape.ranks) * step)
                                 : 0.2 + shape.ranks * 1e-3;
    }
    const std::optional<Collective> kind = measured_collective(name);
    if (!kind)
      return std::nullopt;
    const double bytes = param_number(params, "bytes", 8);
    if (shape.ranks <= 1)
      return m.alpha_launch_s + bytes / m.memory_bw; // a local copy at most
    const bool inter = shape.nodes > 1;
    const double bw = inter ? m.inter_bw : m.intra_bw;
    const double step = inter ? m.alpha_inter_s : m.alpha_intra_s;
    const double steps =
        *kind == Collective::alltoall ? shape.ranks - 1.0 : log2_steps(shape.ranks);
    return m.alpha_launch_s + steps * step + bytes * busbw_factor(*kind, shape.ranks) / bw;
  }

  // A collective is measured in place and out of place (--in-place), a record each;
  // communicator_init runs no collective and makes one.
  int records_per_instance(const std::string& name, const RunConfig& config) const override {
    return measured_collective(name) ? static_cast<int>(placements(config).size()) : 1;
  }

  // Across nodes its transfers ride the inter-node links.
  bool plans_on_inter_link() const override { return true; }

  std::vector<const OptionDeclaration*> options() const override {
    return {&kPlacement, &kCudaGraph};
  }

  // NCCL's documentation: several GPUs per process under CUDA graph capture may deadlock (a graph
  // launch can block until another thread's graph runs). Refused before anything runs rather than
  // risk holding a cluster until the watchdog.
  void check_threads(const RunConfig& config, int ranks) const override {
    if (kCudaGraph.value(config) && ranks > 1) {
      throw InputError("--cuda-graph: not with --single-process on " + std::to_string(ranks) +
                       " ranks (NCCL may deadlock with several GPUs per process under graph "
                       "capture); run one process per GPU under mpirun, or --np 1");
    }
  }

  bool thins_sizes_between_counts() const override { return true; }

  // communicator_init is one record a phase: stopped early by chance (~12 ms) or at the cap
  // (30 ms), its phase ran 0.8-2.2x its plan; in a window, 0.91-0.95.
  bool launch_bound_window(const std::string& name) const override {
    return name == "communicator_init";
  }

  // The share of launch-bound collective records that converge at once: on one rank it exchanges
  // nothing and converges as a local copy does (HardwareModel::lone_collective_converge_share);
  // communicator_init's MPI_Comm_split converged on one rank and on two alike (7 of 9 two-rank
  // records on the idle 2-core VM, the others at the cap): planned as one rank's.
  double launch_bound_converge_share(const std::string& name, const PhaseShape& shape,
                                     const HardwareModel& m) const override {
    if (name == "communicator_init")
      return m.lone_collective_converge_share;
    if (!measured_collective(name))
      return 0.0;
    return shape.ranks == 1 ? m.lone_collective_converge_share : m.collective_converge_share;
  }

private:
  // The collectives the family's cases measure, by their case name.
  static std::optional<Collective> measured_collective(const std::string& name) {
    for (Collective c : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
                         Collective::broadcast, Collective::alltoall}) {
      if (collective_name(c) == name)
        return c;
    }
    return std::nullopt;
  }
};

} // namespace

CB_REGISTER_FAMILY(CollectivesFamily);

} // namespace cb
