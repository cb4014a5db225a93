#include "report/basis_section.hpp"

#include "report/report_format.hpp"

namespace cb::report {
namespace {

std::string capitalised(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
    text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

std::string plan_link_text(const Headline& h) {
  if (h.step && h.step->model)
    return h.step->model->config.plan_link.text;
  if (h.prediction)
    return h.prediction->model.config.plan_link.text;
  return "";
}

} // namespace

std::string assumed_link_sentence(const Headline& h, const PricingBasis& basis) {
  if (!basis.any_assumed())
    return "";
  return " Between nodes the all-reduce is priced on the assumed link --plan-link " +
         plan_link_text(h) + ", not a measurement: nothing was measured across nodes.";
}

std::string all_reduce_from_cell(const TrainingStepModel& model, const StepTime& step) {
  if (step.gpus > 1 && ring_tier_at(model, step.gpus).assumed)
    return "assumed link (--plan-link " + model.config.plan_link.text + ")";
  if (!unpriced_across_nodes(model, step.gpus).empty())
    return "intra-node fit; nothing measured across nodes";
  return step.extrapolated ? "extrapolated" : "measured range";
}

std::vector<Paragraph> declined_items(const Headline& h) {
  std::vector<Paragraph> items;
  for (const auto& [gpus, why] : h.predicted_declined)
    items.push_back({"Predicted training step on " + gpus_text(gpus) + ":", why + "."});
  return items;
}

void add_basis_list(Document& doc, const Headline& h) {
  std::vector<Paragraph> items;
  if (h.step_basis) {
    items.push_back({"Measured step on " + gpus_text(h.step_basis->gpus) + ":",
                     capitalised(describe_basis(*h.step_basis)) + "."});
  } else if (!h.step_cost_declined.empty()) {
    items.push_back({"Measured step:", capitalised(h.step_cost_declined) + "."});
  }
  for (const auto& b : h.predicted_basis) {
    items.push_back(
        {"Predicted step on " + gpus_text(b.gpus) + ":", capitalised(describe_basis(b)) + "."});
  }
  for (const auto& [gpus, why] : h.predicted_declined)
    items.push_back({"Predicted step on " + gpus_text(gpus) + ":", capitalised(why) + "."});
  if (items.empty())
    return;
  doc.heading(3, "What the prices rest on");
  doc.bullets(std::move(items));
}

} // namespace cb::report
