#pragma once
// The training step on the host backend: each rank's model a chain of OpenBLAS GEMMs
// (workload_shape.hpp), its gradients all-reduced by MPI in --bucket-bytes buckets, each started
// as soon as backward has produced it and progressed between the GEMM pieces that follow
// (--overlap on), or all after backward (--overlap off) (gradient_sync.hpp), then an SGD update.
#include <memory>

#include "workload/gradient_sync.hpp"
#include "workload/step_axes.hpp"
#include "workload/step_runner.hpp"
#include "workload/workload_shape.hpp"

namespace cb {

class LayerChain;

class HostStepRunner : public StepRunner {
public:
  // Collective over ctx.comm (an MPI communicator). `loader` may be null (no input read).
  HostStepRunner(const CaseContext& ctx, const WorkloadShape& shape, BatchLoader* loader,
                 const StepSync& sync);
  ~HostStepRunner() override;

  StepParts run_step(std::uint64_t step, std::string* read_error) override;
  void reset_measurements() override;
  std::vector<double> bucket_bytes() const override;
  std::vector<double> bucket_ready_share() const override;
  long long gradient_values_checked() const override { return sync_->checked(); }
  long long gradient_values_wrong() const override { return sync_->wrong(); }
  nlohmann::json record_extra(const CaseContext& ctx) override;
  double flops_per_step() const override { return shape_.flops_per_step(); }

private:
  WorkloadShape shape_;
  bool overlap_;
  float update_scale_;
  BatchLoader* loader_;
  std::unique_ptr<LayerChain> chain_;
  std::unique_ptr<GradientSync> sync_;
  std::vector<double> share_sums_; // per bucket, over the steps since the reset
  long long shared_steps_ = 0;
};

} // namespace cb
