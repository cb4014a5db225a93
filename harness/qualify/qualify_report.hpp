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

// One row in one line: "FAIL: nvlink_bw on links/... gpus=8, measured 412 GB/s, needs >= 430
// GB/s (expected 478 GB/s, ratio 0.86); NOTE".
std::string describe_check_row(const CheckRow& row);

} // namespace cb
