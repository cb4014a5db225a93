#pragma once
// What a spec check may name: the suite families records come in and, per suite, the metrics its
// records carry. A check naming anything else could never match a record and would only ever be
// INCONCLUSIVE, so a spec that does is rejected when it loads. Both come from the "suites" of the
// metrics in results/metrics.json.
#include <string>
#include <string_view>
#include <vector>

namespace cb {

// "collectives", "compute", "links", "storage" (sorted).
const std::vector<std::string>& spec_suites();
// The metrics records of `suite` can carry, in the table's order; empty for an unknown suite.
const std::vector<std::string>& spec_suite_metrics(std::string_view suite);

// "a|b|c", for error messages that list what is allowed.
std::string join_allowed(const std::vector<std::string>& names);

} // namespace cb
