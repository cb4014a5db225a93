#pragma once
// The measured training step in the report: the headline's answer in the background document's
// terms ("on N GPUs this cluster did X % useful work; a 4,000 GPU-hour job on 64 GPUs would take
// H hours and cost $C, W % over the ideal"), and the table of the step measured against its
// prediction per GPU count.
#include <vector>

#include "report/headline.hpp"
#include "report/report_document.hpp"

namespace cb::report {

// The headline's items for the measured step (none without workload records).
std::vector<Paragraph> step_headline_items(const Headline& h);

// "Training step: measured against predicted", with the calibration and the terms that are off.
void add_step_table(Document& doc, const Headline& h);

} // namespace cb::report
