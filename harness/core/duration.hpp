#pragma once
// Time budgets as people type them: 90s, 15m, 15min, 1.5h. A unit is required: "15" alone could be
// seconds or minutes.
#include <string>
#include <string_view>

namespace cb {

// Seconds, > 0. Throws InputError naming `flag` for a missing or unknown unit, zero or negative.
double parse_duration(std::string_view text, std::string_view flag);
// A budget or estimate as people read it: 754 -> "12m 34s", 3725 -> "1h 2m 5s", 0.4 -> "0.4s".
std::string format_budget(double seconds);

} // namespace cb
