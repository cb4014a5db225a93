#pragma once
// A rank's rates that its own time gives: where every per_rank entry's figure K is the record's
// metrics.K scaled by stats.median / the entry's median_s (a collective's algbw, busbw and
// node-link figure; a GEMM's TFLOP/s), the writers leave K out of the entries and name it in
// the record's `per_rank_derived`, and the loader computes it again. At a thousand ranks per
// record these figures are half of a whole-cluster results file.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/record.hpp"

namespace cb {

// The figures of r.per_rank that are derived from the entries' median_s within the six
// significant digits per-rank figures are written with (sorted; empty when none is, when the
// record has fewer than two entries or no positive median, or an entry has no positive median_s).
std::vector<std::string> derivable_rank_rates(const Record& r);

// One per_rank entry as written: without the figures named in `derived`.
nlohmann::json without_rates(const nlohmann::json& entry, const std::vector<std::string>& derived);

// The loader's half: fills each entry's figures named by `derived` (the record's
// per_rank_derived) from metrics, stats.median and the entry's median_s. InputError naming
// `where` and the field when the list is not an array of distinct metric names, an entry
// already has the figure or no positive median_s, or a figure would be out of bounds.
void restore_rank_rates(Record& r, const nlohmann::json& derived, const std::string& where);

} // namespace cb
