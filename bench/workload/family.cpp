// The workload family: a data-parallel training step measured whole.
#include "runtime/family.hpp"
#include "runtime/engine.hpp"
#include "workload/step_runner.hpp"
#include "workload/workload_options.hpp"
#include <algorithm>

#include "core/collective_math.hpp"
#include "planning/hardware_model.hpp"
#include "planning/time_model.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

class WorkloadFamily final : public Family {
public:
  std::string suite() const override { return suite_names::kWorkload; }
  int order() const override { return 4; }
  std::string report_sentence() const override {
    return "a data-parallel training step measured whole, with the same work on every GPU: "
           "tokens per second of all GPUs; E(N) = step(1) / step(N), utilization = compute / step.";
  }
  bool draws_plot(const std::string& stem) const override {
    return Family::draws_plot(stem) || stem == "step_anatomy";
  }

  // Across nodes its transfers ride the inter-node links.
  bool plans_on_inter_link() const override { return true; }

  std::vector<const OptionDeclaration*> options() const override {
    return {&kModelParams, &kTokensPerGpu, &kPrefetch, &kInputBytesPerStep};
  }

  // One step: forward and backward GEMMs (6 flops per parameter per token), the fp32 gradients'
  // all-reduce counted in full (an upper bound: the buckets overlap part of it with backward), and
  // the step's input read from the node's storage.
  std::optional<double> operation_seconds(const std::string& name, const nlohmann::json& params,
                                          const PhaseShape& shape,
                                          const HardwareModel& m) const override {
    if (name != "data_parallel_step")
      return std::nullopt;
    const double model_params = param_number(params, "model_params", 0);
    double s = 6 * model_params * param_number(params, "tokens_per_gpu", 256) /
               (m.gemm_flops * m.step_gemm_share);
    if (shape.ranks > 1) {
      const double bw = shape.nodes > 1 ? m.inter_bw : m.intra_bw;
      s += 4 * model_params * busbw_factor(Collective::all_reduce, shape.ranks) / bw;
    }
    const double input = param_number(params, "input_bytes_per_step", 0);
    if (input > 0 && m.storage_bw_per_node > 0)
      s += input * shape.ranks_per_node / m.storage_bw_per_node;
    return s;
  }

  // The step samples by its own rules (workload/data_parallel_step.cpp): kWarmupSteps steps, no
  // calibration, then steps until the engine's rule stops it but never fewer than min_samples,
  // the cap notwithstanding. Planned by the engine's rules, a 0.6 s step under --quick's 0.2 s cap
  // was 3 steps where the run took 7 (ci/plan-vs-measured: 2.3x its plan at 1 rank).
  void own_sampling(const std::string& /*name*/, double op_s, double sync_s,
                    const MeasureSettings& settings, RecordEstimate& e) const override {
    const int samples = std::max(e.samples, settings.min_samples);
    if (samples > e.samples)
      e.expect = "min_samples";
    e.batch = 1;
    e.samples = samples;
    e.sampling_s = samples * (op_s + sync_s);
    e.seconds = kWarmupSteps * op_s + e.sampling_s;
  }
};

} // namespace

CB_REGISTER_FAMILY(WorkloadFamily);

} // namespace cb
