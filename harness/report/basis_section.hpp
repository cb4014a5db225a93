#pragma once
// What the headline's prices rest on (analysis/pricing_basis.hpp): per priced GPU count, each
// part measured, fitted, extrapolated or assumed; and the counts not priced, with the run that
// would price them.
#include <string>
#include <vector>

#include "report/headline.hpp"
#include "report/report_document.hpp"

namespace cb::report {

// " The all-reduce between nodes is priced on the assumed link --plan-link 400gbit, not a
// measurement." where the basis assumes one; empty otherwise.
std::string assumed_link_sentence(const Headline& h, const PricingBasis& basis);

// "Not priced on 64 GPUs:" items for the predicted step's outlook counts it declined.
std::vector<Paragraph> declined_items(const Headline& h);

// The training-step prediction table's "all-reduce from" cell: "measured range", "extrapolated",
// "assumed link (--plan-link RATE)", or "intra-node fit; nothing measured across nodes".
std::string all_reduce_from_cell(const TrainingStepModel& model, const StepTime& step);

// "What the prices rest on": one item per priced GPU count.
void add_basis_list(Document& doc, const Headline& h);

} // namespace cb::report
