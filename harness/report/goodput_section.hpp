#pragma once
// Useful work in the report: scaling efficiency x goodput at each priced GPU count (the headline's
// sentence and what the job costs there), and the goodput table per GPU count beside the step's
// (analysis/useful_work.hpp: C, R and M, measured or extrapolated, and what was assumed).
#include <nlohmann/json.hpp>
#include <vector>

#include "report/headline.hpp"
#include "report/report_document.hpp"

namespace cb::report {

// "Useful work on 64 GPUs:" items, or one "Goodput:" item saying which run would measure it.
std::vector<Paragraph> goodput_headline_items(const Headline& h, const ReportOptions& options);

// "Goodput per GPU count": the table and what each priced count's figures rest on (none where
// nothing was measured: the headline said why).
void add_goodput_table(Document& doc, const Headline& h);

// {"at": [goodput_at_scale_to_json per count, with "efficiency" and "useful_work" at the priced
// ones], "not_measured": why or null}: the report JSON's headline.goodput, and what plots/plot.py
// --goodput draws.
nlohmann::json goodput_json(const Headline& h);

} // namespace cb::report
