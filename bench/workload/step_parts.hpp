#pragma once
// Where a training step's time went, as measured on one rank: compute (the GEMMs and the
// optimizer update), exposed communication (time inside the all-reduce's MPI calls: what compute
// did not hide), input wait (time the step waited for its batch) and the step itself, wall clock.
// Pure functions over those, unit-tested.
#include <cstddef>
#include <string>
#include <vector>

namespace cb {

struct StepParts {
  double step_s = 0;
  double compute_s = 0;
  double exposed_comm_s = 0;
  double input_wait_s = 0;
  double backward_s = 0; // backward's GEMMs, within compute_s (for the all-reduce timeline)
  double update_s = 0;   // the optimizer update, within compute_s (not a GEMM)

  // The GEMMs' time: compute without the update, for the step's GEMM rate.
  double gemm_s() const { return compute_s - update_s; }

  // The step's time in none of the parts (loop bookkeeping, the loader hand-off), at least 0.
  double unaccounted_s() const;
  // compute / step: the share of the step doing useful work.
  double utilization() const { return step_s > 0 ? compute_s / step_s : 0; }
  // |compute + exposed + input - step| / step.
  double gap() const;
};

// The median step, whole: the parts of the step whose step_s is the median (the mean of the two
// middle steps' parts for an even count), so that they add up as that step's did. Separate
// medians of each part would not: a step with a long wait and one with long compute give a
// median of both that no step had.
StepParts median_step(const std::vector<StepParts>& steps);

// Steps as one flat vector and back, so that rank 0 gathers several steps' parts in one
// collective (kStepPartsFields values a step, in the struct's order). unpack_steps throws
// std::invalid_argument on a length that is not a whole number of steps.
inline constexpr std::size_t kStepPartsFields = 6;
std::vector<double> pack_steps(const std::vector<StepParts>& steps);
std::vector<StepParts> unpack_steps(const std::vector<double>& values);

// Losses together under this share of the step are nothing to name.
inline constexpr double kNegligibleLoss = 0.01;

// The part that lost the most time: "exposed_comm", "input_wait" or "unaccounted"; "none" when
// the losses together are under kNegligibleLoss of the step.
std::string largest_loss(const StepParts& parts);

} // namespace cb
