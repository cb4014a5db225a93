#pragma once
// What a priced training step rests on, at each GPU count it is priced at: each part measured
// there, fitted within the measured range, extrapolated beyond it, or assumed. Beyond one node
// with no inter-node all_reduce measured, intra-node figures would price the network as if it
// were the node's own links, so the step is not priced there unless a link is assumed
// (--plan-link), and the reason names the run that would answer.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/measured_step.hpp"
#include "analysis/prediction.hpp"

namespace cb {

struct BasisItem {
  std::string part;  // "step", "compute", "all-reduce", "input"
  std::string basis; // in words: "measured at 64 GPUs", "assumed: --plan-link 400gbit ..."
  bool assumed = false;
  bool extrapolated = false;
};

struct PricingBasis {
  int gpus = 0;
  std::vector<BasisItem> items;
  bool any_assumed() const;
};

// Why the step cannot be priced at `gpus` from what was measured: it spans more GPUs than were
// measured on one node and neither an inter-node all_reduce was measured nor a link assumed.
// Empty where it can be priced.
std::string unpriced_across_nodes(const TrainingStepModel& model, int gpus);

// The predicted step (the parts alone, prediction.hpp) at `gpus`.
PricingBasis predicted_basis(const TrainingStepModel& model, int gpus);
// The measured step at `gpus`: measured there, or calibrated from the largest measured count.
PricingBasis measured_step_basis(const StepValidation& v, int gpus);

// "compute: ...; all-reduce: ...; input: ..."
std::string describe_basis(const PricingBasis& basis);
// {"gpus", "parts": [{"part", "basis", "assumed", "extrapolated"}]}
nlohmann::json basis_to_json(const PricingBasis& basis);

} // namespace cb
