#pragma once
// `report --json`: the same content as the Markdown, as numbers rather than sentences.
#include <nlohmann/json.hpp>

#include "report/report_builder.hpp"
#include "report/report_data.hpp"

namespace cb::report {

nlohmann::json report_to_json(const ReportData& data, const PlotSet& plots = {});

} // namespace cb::report
