#include "analysis/pricing_basis.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/format.hpp"

namespace cb {
namespace {

std::string gpus_text(int n) {
  return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

std::string range_text(const std::vector<int>& gpus) {
  if (gpus.empty())
    return "no GPU count";
  if (gpus.front() == gpus.back())
    return gpus_text(gpus.front());
  return std::to_string(gpus.front()) + ".." + gpus_text(gpus.back());
}

bool measured_across_nodes(const TrainingStepModel& model) {
  return std::any_of(model.ring.begin(), model.ring.end(),
                     [](const RingAllReduceFit& f) { return f.tier == "inter" && !f.assumed; });
}

BasisItem all_reduce_item(const TrainingStepModel& model, int gpus) {
  if (gpus == 1)
    return {"all-reduce", "none on one GPU"};
  const RingAllReduceFit& fit = ring_tier_at(model, gpus);
  if (fit.assumed) {
    const std::string rate = format_gbps(fit.bandwidth_gbps());
    // The ring runs at its slowest link: where the node's own is slower, it sets the pace.
    const bool node_slower =
        fit.bandwidth_gbps() < model.config.plan_link.bytes_per_s * 1e-9 * 0.999;
    return {"all-reduce",
            "assumed: the link --plan-link " + shown(model.config.plan_link.text, 40) +
                " between nodes (" +
                (node_slower ? "the ring held to the node's own " + std::string(rate) +
                                   " per rank, slower than the link"
                             : std::string(rate) + " per rank") +
                "), with the node's measured latency; nothing was measured across nodes",
            true, true};
  }
  std::string basis = "the " + std::string(fit.tier == "inter" ? "inter-node" : "intra-node") +
                      " ring fit of all_reduce measured on " + range_text(fit.gpus);
  const bool beyond = fit.gpus.empty() || gpus > fit.gpus.back();
  if (beyond)
    basis += ", extrapolated";
  if (gpus > model.gpus_per_node && fit.tier != "inter")
    basis += "; nothing was measured across nodes";
  return {"all-reduce", basis, false, beyond};
}

BasisItem input_item(const TrainingStepModel& model, int gpus) {
  if (!(model.config.bytes_per_step > 0))
    return {"input", "none read"};
  if (!model.storage)
    return {"input", "not measured: left out"};
  const Curve& c = *model.storage;
  if (std::find(c.gpus.begin(), c.gpus.end(), gpus) != c.gpus.end())
    return {"input", "storage/seq_read measured at " + gpus_text(gpus)};
  const bool usl = model.storage_usl && model.storage_usl->ok;
  const bool beyond = gpus > c.gpus.back();
  return {"input",
          std::string(usl ? "the USL fitted to" : "the nearest of") +
              " storage/seq_read measured on " + range_text(c.gpus) +
              (beyond ? ", extrapolated" : ""),
          false, beyond};
}

} // namespace

bool PricingBasis::any_assumed() const {
  return std::any_of(items.begin(), items.end(), [](const BasisItem& i) { return i.assumed; });
}

std::string unpriced_across_nodes(const TrainingStepModel& model, int gpus) {
  if (gpus <= model.gpus_per_node || measured_across_nodes(model) || model.config.plan_link.given())
    return "";
  // The most GPUs measured on one node, which may be fewer than the node has: the sentence says
  // what was measured, and the run it suggests is an example for nodes of that size.
  const int node = model.gpus_per_node;
  return "not priced on " + gpus_text(gpus) + ": nothing was measured across nodes (at most " +
         gpus_text(node) +
         ", on one node); intra-node figures would price the network as the node's links. "
         "Measure two nodes (run --gpus " +
         std::to_string(node) + "," + std::to_string(2 * node) + " on two nodes of " +
         std::to_string(node) + " GPUs) or assume a link with --plan-link RATE";
}

PricingBasis predicted_basis(const TrainingStepModel& model, int gpus) {
  PricingBasis b;
  b.gpus = gpus;
  b.items.push_back({"compute", "the GEMM rate of " + model.gemm_from});
  b.items.push_back(all_reduce_item(model, gpus));
  b.items.push_back(input_item(model, gpus));
  return b;
}

PricingBasis measured_step_basis(const StepValidation& v, int gpus) {
  PricingBasis b;
  b.gpus = gpus;
  if (v.workload.at(gpus)) {
    b.items.push_back({"step", "measured at " + gpus_text(gpus)});
    return b;
  }
  const int largest = v.workload.largest().gpus;
  b.items.push_back({"step", "calibrated by the step measured up to " + gpus_text(largest), false,
                     gpus > largest});
  b.items.push_back({"compute", "the step's measured compute at " + gpus_text(largest)});
  if (v.model) {
    b.items.push_back(all_reduce_item(*v.model, gpus));
    b.items.push_back(input_item(*v.model, gpus));
  }
  return b;
}

std::string describe_basis(const PricingBasis& basis) {
  std::string text;
  for (const auto& item : basis.items)
    text += (text.empty() ? "" : "; ") + item.part + ": " + item.basis;
  return text;
}

nlohmann::json basis_to_json(const PricingBasis& basis) {
  nlohmann::json parts = nlohmann::json::array();
  for (const auto& item : basis.items) {
    parts.push_back({{"part", item.part},
                     {"basis", item.basis},
                     {"assumed", item.assumed},
                     {"extrapolated", item.extrapolated}});
  }
  return {{"gpus", basis.gpus}, {"parts", parts}};
}

} // namespace cb
