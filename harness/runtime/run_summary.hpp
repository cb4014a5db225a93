#pragma once
// The lines a run ends with on rank 0: how many records ended how, the spread of the noisy ones,
// the peak memory and where the results are. Formatting only; the sweep counts.
#include <string>

#include "runtime/sweep.hpp"

namespace cb {

// `peak_rss_bytes`: the largest of the ranks' peaks; `threads`: the ranks are threads of one
// process, so the figure is the process's, for all of them.
std::string run_summary_text(const SweepSummary& s, double peak_rss_bytes, const std::string& out,
                             bool threads);

} // namespace cb
