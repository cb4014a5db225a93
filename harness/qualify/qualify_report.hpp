#pragma once
// Printers of a qualification report: a table for people, JSON for machines. They only format.
#include <nlohmann/json.hpp>
#include <string>

#include "qualify/qualify.hpp"

namespace cb {

// Checks table (expected, measured, ratio, verdict), the sources of the figures, the named
// outliers and suspects, then the overall verdict.
std::string format_qualify_text(const QualifyReport& report);
nlohmann::json qualify_to_json(const QualifyReport& report);

// A figure with as many digits as its size needs: 4302, 431.5, 55.40, 0.853.
std::string format_figure(double value);

} // namespace cb
