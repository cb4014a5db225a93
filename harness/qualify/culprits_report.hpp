#pragma once
// The culprits of a qualification as text (one line each, then the notes) and as JSON
// (`culprits`, `culprit_notes`): formatting only.
#include <nlohmann/json.hpp>
#include <string>

#include "qualify/culprits.hpp"

namespace cb {

std::string format_culprits_text(const CulpritReport& report);
nlohmann::json culprits_to_json(const CulpritReport& report);
// "2 culprits from 1,204 figures of 5 records" for the fleet row.
std::string culprits_summary(const CulpritReport& report);

} // namespace cb
